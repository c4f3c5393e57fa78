/**
 * CPU and memory of a process from /proc (Linux), for `npm run bench:scale`: a replica's CPU time
 * (user + system) and resident memory. Zero where /proc does not exist.
 */
import { readFile } from "node:fs/promises";

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time the process used so far, ms (user + system); with `children`, also that of its children
 * that ended (the git commands the GitHub double runs).
 */
export async function cpuMs(pid: number, children = false): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  if (stat === "") return 0;
  // pid (comm) state ...: the fields after the command's closing parenthesis; utime, stime,
  // cutime and cstime are the 14th to 17th of the line.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const own = Number(fields[11]) + Number(fields[12]);
  return ((own + (children ? Number(fields[13]) + Number(fields[14]) : 0)) * 1000) / TICKS_PER_SECOND;
}

/** Resident memory of the process, bytes (VmRSS). */
export async function residentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  return m ? Number(m[1]) * 1024 : 0;
}

/** The value of a metric without labels in a Prometheus text exposition (NaN when absent). */
export function metricValue(text: string, name: string): number {
  const m = new RegExp(`^${name} (\\S+)$`, "m").exec(text);
  return m ? Number(m[1]) : Number.NaN;
}
