/**
 * The whole machine's CPU use, from /proc/stat (Linux): `npm run bench:load` prints it per window,
 * since other work on the machine (other processes than the server and the load generator) moves
 * every figure.
 */
import { readFile } from "node:fs/promises";

/** A reading of the machine's CPU counters. */
export interface CpuReading {
  busy: number;
  total: number;
  /** Busy cores on average since `earlier` (0 to the number of cores). */
  busySince(earlier: CpuReading): number;
}

/** Reads the counters (all zero where /proc/stat does not exist). */
export async function machineCpu(): Promise<CpuReading> {
  const text = await readFile("/proc/stat", "utf8").catch(() => "cpu 0 0 0 0");
  const cores = text.split("\n").filter((l) => /^cpu\d/.test(l)).length || 1;
  const [user, nice, system, idle, iowait, irq, softirq, steal] = text
    .split("\n")[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const idleAll = idle + (iowait || 0);
  const total = user + nice + system + idleAll + (irq || 0) + (softirq || 0) + (steal || 0);
  const busy = total - idleAll;
  return { busy, total, busySince: (e) => (total > e.total ? (cores * (busy - e.busy)) / (total - e.total) : 0) };
}
