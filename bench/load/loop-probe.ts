/**
 * Preloaded into the server of `npm run bench:load` (`node --import`): measures the event loop's
 * delay (perf_hooks.monitorEventLoopDelay, 10 ms resolution) and the process's CPU time, and on
 * SIGUSR2 prints one line `loop-probe {json}` to stdout with what was measured since the previous
 * signal, then starts again. Not part of the service.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";

const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
let cpu = process.cpuUsage();
let since = performance.now();
process.on("SIGUSR2", () => {
  const used = process.cpuUsage(cpu);
  const wall = performance.now() - since;
  const ms = (ns: number) => Math.round(ns / 1e5) / 10;
  const line = {
    p50: ms(histogram.percentile(50)),
    p99: ms(histogram.percentile(99)),
    max: ms(histogram.max),
    cpu: (used.user + used.system) / 1000 / wall,
  };
  process.stdout.write(`loop-probe ${JSON.stringify(line)}\n`);
  histogram.reset();
  cpu = process.cpuUsage();
  since = performance.now();
});
