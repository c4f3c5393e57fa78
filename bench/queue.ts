/**
 * Merge queue benchmark (`npm run bench:queue`): the real engine in virtual time under the rules of
 * docs/benchmarks.md "The merge queue": D = 30 min CI, p = 0.05, no flakes, k = 10 CI slots, 3
 * seeds × 20,000 pull requests per point, at λ = 8/h and 16/h. Per rate: the anchors (speculation
 * only, bors-like batches of 8, serial), a scan of Yardmaster configurations, and the untuned
 * (self-tuned) default, pooled over the seeds; then each target as PASS/FAIL with its figure, the
 * closed forms on saturated runs, and the idealised estimate. The exit code is 0 either way (a
 * benchmark reports, it does not gate). Options: `--pull-requests N` (20000), `--seeds S` (3),
 * `--seed FIRST` (1), `--workers W` (worker threads, default 2), `--quick` (two scan points per rate).
 */
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { closedFormChecks } from "./queue/closed-form-checks.js";
import { printEstimates } from "./queue/estimate-lines.js";
import { latencyClasses } from "./queue/latency-breakdown.js";
import { runJobs, type Job } from "./queue/parallel.js";
import { pointsAt } from "./queue/points.js";
import { BREAK_PROBABILITY, CI_SLOTS, D_MINUTES } from "./queue/runs.js";
import { pool, type PointFigures, type RunSummary } from "./queue/summary.js";
import { defaultVerdict, figure, targetVerdict, type Target } from "./queue/verdicts.js";

const { values } = parseArgs({
  options: {
    "pull-requests": { type: "string", default: "20000" },
    seeds: { type: "string", default: "3" },
    seed: { type: "string", default: "1" },
    workers: { type: "string", default: String(Math.min(2, availableParallelism())) },
    quick: { type: "boolean", default: false },
  },
});
const N = Number(values["pull-requests"]);
const SEEDS = Array.from({ length: Number(values.seeds) }, (_, i) => Number(values.seed) + i);
const TARGETS: Target[] = [
  { lambda: 8, p95: 60, runs: 0.8 },
  { lambda: 16, p95: 90, runs: 0.85 },
];
const fmt = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : "-");

function row(name: string, f: PointFigures): string {
  const state = f.unstable ? `UNSTABLE (${fmt(f.mergesPerHour, 2)} merges/h)` : "stable";
  const sentBack = f.goodDequeued > 0 ? `  ${f.goodDequeued} good pull requests sent back` : "";
  return `  ${name.padEnd(34)} mean ${fmt(f.meanMinutes).padStart(6)} min   ${figure(f)}   ${state}${sentBack}`;
}

console.log(
  `Merge queue benchmark: D = ${D_MINUTES} min, p = ${BREAK_PROBABILITY}, no flakes, k = ${CI_SLOTS} CI slots, ${SEEDS.length} seeds (${SEEDS.join(", ")}) × ${N} pull requests per point, ${values.workers} workers`,
);
const started = Date.now();
const plan = TARGETS.map((t) => ({ target: t, points: pointsAt(t.lambda, values.quick) }));
const jobs: (Job & { at: number; point: number })[] = plan.flatMap(({ target, points }, at) =>
  points.flatMap((p, point) =>
    SEEDS.map((seed) => ({
      at,
      point,
      knobs: p.knobs,
      lambda: target.lambda,
      pullRequests: N,
      seed,
      tag: p.role === "default",
    })),
  ),
);
const runs = await runJobs(jobs, Number(values.workers));
const results: string[] = [];
plan.forEach(({ target, points }, at) => {
  console.log(`\nλ = ${target.lambda}/h`);
  const measured = points.map((p, point) => {
    const mine = runs.filter((_, i) => jobs[i]!.at === at && jobs[i]!.point === point);
    return { point: p, runs: mine, figures: pool(mine, D_MINUTES) };
  });
  for (const m of measured) console.log(row(m.point.name, m.figures));
  const configs = measured
    .filter((m) => m.point.role !== "anchor")
    .map((m) => ({ name: m.point.name, figures: m.figures }));
  const def = measured.find((m) => m.point.role === "default")!;
  console.log("  the untuned default's merged pull requests by what happened to them (seeds pooled):");
  const pairs = def.runs.flatMap((r: RunSummary) => r.minutes.map((m, i) => [m, r.classes![i]!] as [number, string]));
  for (const c of latencyClasses(pairs)) {
    console.log(
      `    ${c.name.padEnd(40)} ${(100 * c.share).toFixed(1).padStart(5)}% of merges   mean ${fmt(c.meanMinutes).padStart(6)} min   p95 ${fmt(c.p95Minutes).padStart(6)} min   ${(100 * c.shareOfSlowest).toFixed(0).padStart(3)}% of the slowest 5%`,
    );
  }
  results.push(targetVerdict(target, configs).line);
  results.push(
    defaultVerdict(
      target,
      def.figures,
      configs.filter((c) => c.figures !== def.figures),
    ).line,
  );
  const untested = measured.reduce((a, m) => a + m.figures.untestedMerges, 0);
  results.push(
    `${untested === 0 ? "PASS" : "FAIL"}  λ=${target.lambda}/h the base only received tested trees (${untested} untested merges)`,
  );
});
console.log(`\n(open-loop runs: ${fmt((Date.now() - started) / 1000, 0)} s)`);
results.push(...closedFormChecks(Math.max(3000, Math.min(N, 8000)), SEEDS[0]!));
console.log("\nTargets");
for (const r of results) console.log(`  ${r}`);
printEstimates(TARGETS);
