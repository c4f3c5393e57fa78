/**
 * The output of `npm run bench:load`: per window the merge rate, the server's CPU and event loop
 * delay, and each reader's figures; then the verdicts against the targets, the merge rate under
 * load compared with the mean of the unloaded windows of the same run.
 */
import type { ReaderFigures } from "./readers.js";
import type { LoopProbe } from "./server.js";
import { LOGS_RPS, mergeVerdict, readerVerdicts, STATUS_RPS } from "./targets.js";

/** One measured window: its name, span (epoch ms), readers' figures and the server's probe. */
export interface Window {
  name: string;
  from: number;
  to: number;
  readers: Record<string, ReaderFigures>;
  loop: LoopProbe;
  /** CPU the load generator (this process) used in the window, in cores. */
  generatorCpu: number;
  /** CPU the whole machine used in the window (every process, other work included), in cores. */
  machineBusy: number;
}

/**
 * The unloaded merge rate to compare window `i` with: the mean of the nearest unloaded window
 * before it and after it (or of every unloaded window when it has no such neighbours), so that a
 * change of the machine's other load during the run moves both alike.
 */
function baseline(windows: Window[], i: number, rate: (w: Window) => number | null): number | null {
  const before = windows
    .slice(0, i)
    .reverse()
    .find((w) => w.name === "unloaded");
  const after = windows.slice(i + 1).find((w) => w.name === "unloaded");
  const near = [before, after].filter((w): w is Window => w !== undefined);
  const rates = (near.length ? near : windows.filter((w) => w.name === "unloaded"))
    .map(rate)
    .filter((r): r is number => r !== null);
  return rates.length ? rates.reduce((a, b) => a + b, 0) / rates.length : null;
}

/** Pull requests that must still wait at a window's end for its merge rate to count (two batches of two). */
const MIN_WAITING = 4;

/**
 * Prints the table and the verdicts. `merged` holds the merge times (epoch ms) of the run's pull
 * requests, `pulls` how many were queued.
 */
export function printReport(windows: Window[], merged: number[], pulls: number, log: (line: string) => void): void {
  const rate = (w: Window) =>
    merged.filter((t) => t < w.to).length > pulls - MIN_WAITING
      ? null
      : (merged.filter((t) => t >= w.from && t < w.to).length * 60_000) / (w.to - w.from);
  log(
    "window     merges/min  machine CPU  server CPU  generator CPU  loop delay p99/max ms  reader  requests/s  p50 ms  p99 ms  failed",
  );
  for (const w of windows) {
    const r = rate(w);
    const cpu = `${w.machineBusy.toFixed(2).padStart(11)}  ${w.loop.cpu.toFixed(2).padStart(10)}  ${w.generatorCpu.toFixed(2).padStart(13)}`;
    const head = `${w.name.padEnd(10)} ${(r === null ? "dry" : r.toFixed(1)).padStart(10)}  ${cpu}  ${`${w.loop.p99}/${w.loop.max}`.padStart(21)}`;
    const rows = Object.entries(w.readers);
    if (rows.length === 0) log(head);
    for (const [name, f] of rows) {
      log(
        `${head}  ${name.padEnd(6)} ${f.requestsPerSecond.toFixed(0).padStart(10)} ${f.p50.toFixed(0).padStart(7)} ${f.p99.toFixed(0).padStart(7)} ${String(f.non2xx + f.errors).padStart(7)}`,
      );
    }
  }
  log(
    `${merged.length} of ${pulls} merged by the end ("dry": fewer than ${MIN_WAITING} left to merge, the rate is not counted)`,
  );
  log(
    "targets (the load generator runs on the same 2 cores as the server; the unloaded merge rate of a window is the mean of the unloaded windows next to it)",
  );
  windows.forEach((w, i) => {
    if (w.name === "unloaded") return;
    if (w.readers.status) for (const l of readerVerdicts(`status (${w.name})`, w.readers.status, STATUS_RPS)) log(l);
    if (w.readers.logs) for (const l of readerVerdicts(`filtered /logs (${w.name})`, w.readers.logs, LOGS_RPS)) log(l);
    log(mergeVerdict(`under ${w.name}`, rate(w), baseline(windows, i, rate)));
  });
}
