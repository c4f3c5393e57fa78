/**
 * A server killed outright (SIGKILL, a crash) leaves its embedded PostgreSQL running: the
 * postmaster is a child process that outlives its parent, holds the data directory
 * (`postmaster.pid`) and would keep the next start from using it. Before starting the embedded
 * server, {@link stopOrphanedPostgres} finds such a postmaster and stops it with a fast shutdown
 * (SIGINT: open transactions are rolled back, nothing committed is lost), then waits for it to exit.
 * A postmaster whose parent is still alive belongs to another running process using the same data
 * directory: that is refused with an error naming it. Linux only (it reads /proc); elsewhere
 * nothing is done and PostgreSQL's own lock check reports the conflict.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { isLiveStat, isRunning, processStat } from "./process-state.js";

/** How long a fast shutdown may take before the start gives up, ms. */
export const ORPHAN_SHUTDOWN_TIMEOUT_MS = 60_000;

/** The PID of `postmaster.pid`'s first line, or null when there is no such file. */
async function postmasterPid(dataDir: string): Promise<number | null> {
  const file = path.join(dataDir, "postmaster.pid");
  if (!existsSync(file)) return null;
  const pid = Number((await readFile(file, "utf8").catch(() => "")).split("\n")[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/**
 * Stops the postmaster left running on `dataDir` by a process that no longer exists (see the file
 * header); does nothing when there is none.
 * @throws Error when a live process other than an orphan holds the data directory, or when the
 *   orphan does not exit within {@link ORPHAN_SHUTDOWN_TIMEOUT_MS}
 */
export async function stopOrphanedPostgres(dataDir: string): Promise<void> {
  if (!existsSync("/proc/self/stat")) return;
  const pid = await postmasterPid(dataDir);
  if (pid === null) return;
  const stat = await processStat(pid);
  if (stat === null || !isLiveStat(stat)) return; // a stale file: PostgreSQL removes it itself
  const cmdline = (await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "")).split("\0");
  if (!cmdline.some((arg) => /postgres$/.test(arg))) return; // the PID was reused by another program
  const parent = Number(stat[1]);
  // An orphan is adopted by init (PID 1) or by a subreaper; the process that started it is gone.
  const parentStat = parent > 1 ? await processStat(parent) : null;
  const parentCmd =
    parent > 1 ? ((await readFile(`/proc/${parent}/cmdline`, "utf8").catch(() => "")).split("\0")[0] ?? "") : "";
  const orphan = parent <= 1 || parentStat === null || !/node|yardmaster/.test(path.basename(parentCmd));
  if (!orphan) {
    throw new Error(
      `the PostgreSQL data directory ${dataDir} is in use by a running server (postmaster ${pid}, started by process ${parent}): stop it first`,
    );
  }
  process.kill(pid, "SIGINT");
  const deadline = Date.now() + ORPHAN_SHUTDOWN_TIMEOUT_MS;
  while ((await isRunning(pid)) && Date.now() < deadline) await sleep(100);
  if (await isRunning(pid))
    throw new Error(`the PostgreSQL left running on ${dataDir} by a stopped server (pid ${pid}) did not shut down`);
}
