/**
 * Risk-aware batching, measured (docs/benchmarks.md "Risk-aware batching"): the self-tuned default
 * at λ = 8/h and 16/h on the `tests` workload, blind to risk (`risk_aware_batching` off) and
 * risk-aware (on) on the same seeds, pooled, side by side, with the ratios of one run and a PASS or
 * FAIL line per rate (it pays: fewer runs per merge or a lower p95, the other no worse).
 * Usage: `npm run bench:queue:risk -- [--pull-requests N] [--seeds 1,2,3] [--mode aware|blind]
 * [--workers W]` (defaults: 4,000 pull requests, seeds 1-3, aware, 2 workers).
 */
import { parseArgs } from "node:util";
import { tunedQueueSettings } from "../services/engine/index.js";
import { fmt } from "./queue/command-line.js";
import { BREAK_PROBABILITY, D_MINUTES } from "./queue/runs.js";
import {
  MODES,
  OWN_CI_FAILED_GOOD,
  runTestsJobs,
  type Mode,
  type TestsJob,
  testsFigures,
} from "./queue/tests-workload.js";

const { values } = parseArgs({
  options: {
    "pull-requests": { type: "string", default: "4000" },
    seeds: { type: "string", default: "1,2,3" },
    mode: { type: "string", default: "aware" },
    workers: { type: "string", default: "2" },
  },
});
const PULLS = Number(values["pull-requests"]);
const SEEDS = values.seeds.split(",").map(Number);
const MODE = values.mode as Mode;
const WORKERS = Number(values.workers);
if (!MODES.includes(MODE)) throw new Error(`--mode: one of ${MODES.join(", ")}`);
if (!(PULLS > 0) || SEEDS.some((s) => !Number.isInteger(s))) throw new Error("--pull-requests and --seeds: integers");

const RATES = [8, 16];
const VARIANTS = [
  { name: "blind to risk", risk: false },
  { name: "risk-aware", risk: true },
];

console.log(
  `Risk-aware batching, tests workload (${MODE}): D = ${D_MINUTES} min, p = ${BREAK_PROBABILITY}, own CI failed for attributable culprits and ${OWN_CI_FAILED_GOOD} of good pull requests; seeds ${SEEDS.join(", ")} × ${PULLS} pull requests; the self-tuned default from λ, D, p`,
);
const started = Date.now();
const jobs: (TestsJob & { rate: number; variant: number })[] = RATES.flatMap((lambda) =>
  VARIANTS.flatMap((v, variant) =>
    SEEDS.map((seed) => {
      const tuned = tunedQueueSettings({
        arrivalsPerHour: lambda,
        ciSeconds: D_MINUTES * 60,
        failureRate: BREAK_PROBABILITY,
      });
      const knobs = { ...tuned, riskAwareBatching: v.risk };
      return { knobs, mode: MODE, lambda, pullRequests: PULLS, seed, rate: lambda, variant };
    }),
  ),
);
const results = await runTestsJobs(jobs, WORKERS);
for (const lambda of RATES) {
  const rows = VARIANTS.map((_v, k) =>
    testsFigures(results.filter((_, i) => jobs[i]!.rate === lambda && jobs[i]!.variant === k)),
  );
  const k = jobs.find((j) => j.rate === lambda)!.knobs;
  console.log(
    `λ = ${lambda}/h, default {${k.batchSize.min},${k.batchSize.max}} ${fmt(k.batchMaxWaitSeconds / 60, 0)} min ×${k.maxParallelChecks}`,
  );
  rows.forEach((f, i) =>
    console.log(
      `  ${VARIANTS[i]!.name.padEnd(14)} p50 ${fmt(f.p50Minutes)} min  p95 ${fmt(f.p95Minutes)} min  ${fmt(f.runsPerMerge, 3)} runs/merge  ${fmt(f.ciHoursPerMerge, 3)} CI h/merge  ${f.bisections} bisections  ${f.reruns} re-runs  ${f.goodDequeued} good sent back  ${f.merged} merged${f.unstable ? "  UNSTABLE" : ""}`,
    ),
  );
  const [off, on] = rows as [ReturnType<typeof testsFigures>, ReturnType<typeof testsFigures>];
  const runs = on.runsPerMerge / off.runsPerMerge;
  const p95 = on.p95Minutes / off.p95Minutes;
  const pays = (runs < 1 && p95 <= 1) || (p95 < 1 && runs <= 1);
  console.log(
    `${pays ? "PASS" : "FAIL"} tests workload λ = ${lambda}/h: risk-aware batching pays (runs per merge ×${fmt(runs, 3)}, p95 ×${fmt(p95, 3)}, untested merges ${on.untestedMerges})`,
  );
}
console.log(`(${fmt((Date.now() - started) / 1000, 0)} s)`);
