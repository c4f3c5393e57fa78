/**
 * `npm run bench:config` (docs/reliability.md "Hostile input"): for each hostile configuration
 * text (bench/config/hostile-texts.ts),
 * - before: the `yaml` library parsing it the way the loader did before the limits, on the event
 *   loop (bench/config/baseline.ts; stopped at BENCH_BASELINE_CAP_MS, default 20,000): the event
 *   loop was held that long;
 * - after: the loader's own time (inline: what a worker thread spends) and, loaded as the server
 *   loads it (services/offload: in the worker pool), the wall time and the longest the event loop
 *   was held meanwhile; the ratio before / held.
 * Then a REST body holding 1 MiB of configuration text: lossless-json alone against the
 * gateway's parser (long strings decoded natively). Target: nothing holds the loop over 50 ms.
 * Wall clock on a shared machine: compare ratios, not absolute numbers; the loop's delay while
 * idle and the load average are printed, since on a machine busier than its cores the loop also
 * waits for a core.
 */
import { availableParallelism, loadavg } from "node:os";
import { isSafeNumber, parse as parseLossless } from "lossless-json";
import { baselineParseMs } from "./config/baseline.js";
import { heldWhile } from "./config/loop-held.js";
import { hostileConfigurations } from "./config/hostile-texts.js";
import { parseJsonBody } from "../services/offload/json-body.js";
import { createWorkerPool, loadConfigurationIn } from "../services/offload/index.js";
import { loadConfiguration } from "../services/config/index.js";

const CAP_MS = Number(process.env.BENCH_BASELINE_CAP_MS ?? 20_000);
const ms = (n: number) => `${n.toFixed(0)} ms`;

const pool = createWorkerPool();
await loadConfigurationIn(pool, "queue_rules: []\n", {}, 0); // a thread started
// What the machine alone does to the loop (other processes, timers): the floor of "held".
const idle = await heldWhile(() => new Promise((r) => setTimeout(r, 1000)));
const texts = hostileConfigurations();
// Loaded as the server loads them first, so that the garbage of the inline runs does not fall in.
const pooled = [];
for (const { text } of texts) pooled.push(await heldWhile(() => loadConfigurationIn(pool, text)));
await pool.close();
console.log(
  `hostile configuration texts: before (old parse, on the loop) | after: loader time, pooled wall time, loop held | ratio`,
);
for (const [i, { name, text }] of texts.entries()) {
  const before = await baselineParseMs(text, CAP_MS);
  const t0 = performance.now();
  const inline = await loadConfiguration(text);
  const loaderMs = performance.now() - t0;
  const { wall, held } = pooled[i];
  const beforeText = before === null ? `> ${ms(CAP_MS)}` : ms(before);
  const ratio = `${before === null ? ">" : ""}${((before ?? CAP_MS) / Math.max(held, 1)).toFixed(0)}x`;
  const errors = inline.ok ? "loads" : `${inline.errors.length} error${inline.errors.length === 1 ? "" : "s"}`;
  console.log(
    `  ${name.padEnd(48)} ${beforeText.padStart(10)} | ${ms(loaderMs).padStart(8)} ${ms(wall).padStart(8)} ${ms(held).padStart(6)} | ${ratio.padStart(7)}  (${errors})`,
  );
}
const worst = Math.max(...pooled.map((p) => p.held));
console.log(
  `the event loop held by the machine alone (1 s idle): ${ms(idle.held)}; load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`,
);

const text = hostileConfigurations()[0].text;
const body = JSON.stringify({ service_yml: text });
const timeOf = (fn: () => unknown) => {
  const times = Array.from({ length: 5 }, () => {
    const t = performance.now();
    fn();
    return performance.now() - t;
  });
  return Math.min(...times);
};
const lossless = timeOf(() => parseLossless(body, null, (s) => (isSafeNumber(s) ? Number(s) : s)));
const ours = timeOf(() => parseJsonBody(body));
console.log(
  `REST body with 1 MiB of configuration text: lossless-json ${lossless.toFixed(1)} ms, the gateway's parser ${ours.toFixed(1)} ms (${(lossless / ours).toFixed(0)}x)`,
);
// On a machine busier than its cores, the loop also waits for a core: compare with the idle line.
console.log(
  `longest the event loop was held while a hostile text loaded: ${ms(worst)} (target <= 50 ms): ${worst <= 50 ? "PASS" : "FAIL"}`,
);
