/**
 * The state of a process read from /proc (Linux): what the embedded PostgreSQL's start needs to
 * find a postmaster left running by a killed server (orphaned-postgres.ts), and what tests use to
 * check that processes were ended.
 */
import { readFile } from "node:fs/promises";

/**
 * The fields of /proc/PID/stat after the command name (which may hold spaces): [state, ppid, ...];
 * null when there is no such process (or no /proc).
 */
export async function processStat(pid: number): Promise<string[] | null> {
  const text = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
  if (text === null) return null;
  return text.slice(text.lastIndexOf(")") + 2).split(" ");
}

/** Whether stat fields (from {@link processStat}) are those of a live process: a zombie waiting to be reaped is not. */
export function isLiveStat(stat: string[] | null): boolean {
  return stat !== null && stat[0] !== "Z" && stat[0] !== "X";
}

/** True while `pid` is a live process (a zombie waiting for its parent to reap it is dead). */
export async function isRunning(pid: number): Promise<boolean> {
  return isLiveStat(await processStat(pid));
}
