/**
 * The embedded ClickHouse engine's threads at a lower CPU priority than the service's own
 * (docs/activity-log.md "The embedded engine", CPU priority). chdb runs ClickHouse inside this
 * process: its query threads (log reads, health computations, inserts' parsing) and background
 * threads (merges, schedules) compete for the same cores as the Node.js main thread, which runs
 * the queue runner and answers every request. On Linux, a sweep gives each thread ClickHouse
 * named (every thread whose name is not `node`: Node.js, V8, libuv and worker threads keep that
 * name) a nice value (`CLICKHOUSE_EMBEDDED_NICE`, default {@link EMBEDDED_THREAD_NICE}), so under
 * CPU contention the main thread runs first and the engine takes the idle time. Raising a thread's own nice value needs no privilege
 * (setpriority(2), https://man7.org/linux/man-pages/man2/setpriority.2.html); ClickHouse's own
 * `os_threads_nice_value_*` settings need CAP_SYS_NICE and are no-ops without it. Elsewhere than
 * Linux, nothing is done. A ClickHouse server (by URL) is not concerned: it is another process.
 */
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";

/** The default nice value of the embedded engine's threads (0 is the system's default; 19 the lowest priority). */
export const EMBEDDED_THREAD_NICE = 10;

/** Milliseconds between two sweeps: the engine's thread pools grow on demand, then keep their threads. */
const SWEEP_MS = 1000;

let timer: NodeJS.Timeout | null = null;
/** Threads already given the nice value (or that refused it), by thread id. */
const seen = new Set<number>();

/** The name of thread `tid` of this process, or null when it has ended. */
function threadName(tid: string): string | null {
  try {
    return readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim();
  } catch {
    return null;
  }
}

/** Gives the engine's threads not seen yet the nice value; forgets threads that ended. */
function sweep(nice: number): void {
  let tids: string[];
  try {
    tids = readdirSync("/proc/self/task");
  } catch {
    return;
  }
  const alive = new Set<number>();
  for (const t of tids) {
    const tid = Number(t);
    alive.add(tid);
    if (seen.has(tid) || tid === process.pid) continue;
    const name = threadName(t);
    if (name === null || name === "node") continue;
    seen.add(tid);
    try {
      os.setPriority(tid, nice);
    } catch {
      // A thread that ended between the listing and the call.
    }
  }
  for (const tid of seen) if (!alive.has(tid)) seen.delete(tid);
}

/**
 * Starts the sweep giving the engine's threads `nice` (1-19; 0 does nothing): at once, then every
 * second, on an unreferenced timer that never keeps the process alive. Once per process (the first
 * call's value holds: one embedded engine per process); a no-op elsewhere than Linux.
 */
export function lowerEmbeddedThreadPriority(nice: number = EMBEDDED_THREAD_NICE): void {
  if (process.platform !== "linux" || timer !== null || nice <= 0) return;
  sweep(nice);
  timer = setInterval(() => sweep(nice), SWEEP_MS);
  timer.unref();
}

/** The nice value of each thread of this process by name (Linux only; empty elsewhere), for tests and operators. */
export function threadPriorities(): { name: string; nice: number }[] {
  if (process.platform !== "linux") return [];
  const out: { name: string; nice: number }[] = [];
  for (const t of readdirSync("/proc/self/task")) {
    const name = threadName(t);
    if (name === null) continue;
    try {
      out.push({ name, nice: os.getPriority(Number(t)) });
    } catch {
      // Ended meanwhile.
    }
  }
  return out;
}
