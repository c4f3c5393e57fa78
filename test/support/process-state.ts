/** Whether a process still runs, read from /proc (Linux), for tests that check processes were ended. */
import { readFile } from "node:fs/promises";

/** True while `pid` is a live process (a zombie waiting for its parent to reap it is dead). */
export async function isRunning(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
  if (stat === null) return false;
  const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  return state !== "Z" && state !== "X";
}
