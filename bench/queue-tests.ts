/**
 * The merge queue benchmark's `tests` workload (`npm run bench:queue:tests`; docs/benchmarks.md
 * "The tests workload"): the self-tuned default at λ = 8/h and 16/h (D = 30 min, p = 0.05, k = 10)
 * with failures that have test identities (a = 0.7, f = 0.03), on the same seeds side by side: the
 * engine blind to tests, the test-aware engine, and the same engine without spurious failures (the
 * flake-free reference); the `aware-known` row has no new flaky test (every spurious failure on a
 * quarantined or known flaky test). Figures pooled over the seeds: good pull requests sent back,
 * runs and CI hours per merge, p50/p95 time in queue, bisections, re-runs; then each target as a
 * PASS or FAIL line naming the `tests` workload. The exit code is 0 either way. Options:
 * `--pull-requests N` (20000), `--seeds S` (3), `--seed FIRST` (1), `--workers W` (2).
 */
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { D_MINUTES } from "./queue/runs.js";
import { pool, quantile } from "./queue/summary.js";
import {
  ATTRIBUTABLE,
  defaultKnobs,
  FLAKY_SHARE,
  MODES,
  QUARANTINED_SHARE,
  runTestsJobs,
  SPURIOUS,
  type Mode,
  type TestsJob,
  type TestsRunSummary,
} from "./queue/tests-workload.js";

const { values } = parseArgs({
  options: {
    "pull-requests": { type: "string", default: "20000" },
    seeds: { type: "string", default: "3" },
    seed: { type: "string", default: "1" },
    workers: { type: "string", default: String(Math.min(2, availableParallelism())) },
  },
});
const N = Number(values["pull-requests"]);
const SEEDS = Array.from({ length: Number(values.seeds) }, (_, i) => Number(values.seed) + i);
const TARGETS = [
  { lambda: 8, p95: 60, runs: 0.8 },
  { lambda: 16, p95: 90, runs: 0.7 },
];
const fmt = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : "-");

/** The pooled figures of one mode at one rate. */
function figures(runs: TestsRunSummary[]) {
  const pooled = pool(runs, D_MINUTES);
  const minutes = runs.flatMap((r) => r.minutes).sort((a, b) => a - b);
  const sum = (f: (r: TestsRunSummary) => number) => runs.reduce((a, r) => a + f(r), 0);
  return {
    ...pooled,
    p50Minutes: quantile(minutes, 0.5),
    ciHoursPerMerge: (pooled.ciDPerMerge * D_MINUTES) / 60,
    reruns: sum((r) => r.reruns),
    bisections: sum((r) => r.bisections),
  };
}
type Figures = ReturnType<typeof figures>;

console.log(
  `Merge queue benchmark, tests workload: D = ${D_MINUTES} min, p = 0.05, a = ${ATTRIBUTABLE}, f = ${SPURIOUS} (quarantined ${QUARANTINED_SHARE}, known flaky ${FLAKY_SHARE}, new ${fmt(1 - QUARANTINED_SHARE - FLAKY_SHARE, 1)}), k = 10, ${SEEDS.length} seeds (${SEEDS.join(", ")}) × ${N} pull requests per row, ${values.workers} workers`,
);
const started = Date.now();
const jobs: TestsJob[] = TARGETS.flatMap((t) =>
  MODES.flatMap((mode) => SEEDS.map((seed) => ({ mode, lambda: t.lambda, pullRequests: N, seed }))),
);
const runs = await runTestsJobs(jobs, Number(values.workers));
const results: string[] = [];
for (const t of TARGETS) {
  const k = defaultKnobs(t.lambda);
  console.log(
    `\nλ = ${t.lambda}/h, the self-tuned default {${k.batchSize.min},${k.batchSize.max}} ${k.batchMaxWaitSeconds / 60}m ×${k.maxParallelChecks}`,
  );
  const at = new Map<Mode, Figures>(
    MODES.map((mode) => [mode, figures(runs.filter((_, i) => jobs[i]!.lambda === t.lambda && jobs[i]!.mode === mode))]),
  );
  for (const [mode, f] of at)
    console.log(
      `  ${mode.padEnd(12)} p50 ${fmt(f.p50Minutes).padStart(6)} min   p95 ${fmt(f.p95Minutes).padStart(6)} min   ${fmt(f.runsPerMerge, 3)} runs/merge   ${fmt(f.ciHoursPerMerge, 3)} CI h/merge   ${String(f.bisections).padStart(5)} bisections   ${String(f.reruns).padStart(5)} re-runs   ${String(f.goodDequeued).padStart(4)} good sent back   ${f.unstable ? "UNSTABLE" : "stable"}`,
    );
  const clean = at.get("clean")!;
  const blind = at.get("blind")!;
  const aware = at.get("aware")!;
  const ratio = (a: number, b: number) => fmt(a / b, 3);
  console.log(
    `  aware / blind: runs per merge ×${ratio(aware.runsPerMerge, blind.runsPerMerge)}, CI hours ×${ratio(aware.ciHoursPerMerge, blind.ciHoursPerMerge)}, p95 ×${ratio(aware.p95Minutes, blind.p95Minutes)}, good sent back ${aware.goodDequeued} against ${blind.goodDequeued}`,
  );
  const known = at.get("aware-known")!;
  const tag = `tests workload λ=${t.lambda}/h`;
  results.push(
    `${known.goodDequeued === 0 ? "PASS" : "FAIL"}  ${tag}: no good pull request sent back by a known-flaky or quarantined test (aware-known: ${known.goodDequeued}; with new flaky tests too, aware ${aware.goodDequeued}; blind ${blind.goodDequeued})`,
  );
  const within = aware.runsPerMerge / clean.runsPerMerge;
  results.push(
    `${within <= 1.05 ? "PASS" : "FAIL"}  ${tag}: runs per merge within 5% of the flake-free workload (${fmt(aware.runsPerMerge, 3)} against ${fmt(clean.runsPerMerge, 3)}: ×${fmt(within, 3)}; blind ×${fmt(blind.runsPerMerge / clean.runsPerMerge, 3)})`,
  );
  const ok = !aware.unstable && aware.p95Minutes <= t.p95 && aware.runsPerMerge <= t.runs;
  results.push(
    `${ok ? "PASS" : "FAIL"}  ${tag}: p95 ≤ ${t.p95} min at ≤ ${t.runs} runs per merge (aware: p95 ${fmt(aware.p95Minutes)} min, ${fmt(aware.runsPerMerge, 3)} runs per merge; blind: ${fmt(blind.p95Minutes)} min, ${fmt(blind.runsPerMerge, 3)})`,
  );
  const untested = [...at.values()].reduce((a, f) => a + f.untestedMerges, 0);
  results.push(
    `${untested === 0 ? "PASS" : "FAIL"}  ${tag}: the base only received tested trees (${untested} untested merges)`,
  );
}
console.log(`\n(${fmt((Date.now() - started) / 1000, 0)} s)\n\nTargets`);
for (const r of results) console.log(`  ${r}`);
