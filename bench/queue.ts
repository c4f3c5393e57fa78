/**
 * Merge queue benchmark (`npm run bench:queue`): the real engine in virtual time under the rules of
 * docs/benchmarks.md "The merge queue": D = 30 min CI, p = 0.05, no flakes, k = 10 CI slots, at
 * λ = 8/h and 16/h. Two stages per rate. Choosing: the scan's grid (points.ts, 45 configurations)
 * on seeds 1-3 at a reduced size; per target, one configuration is picked (held-out.ts). Judging,
 * on held-out seeds 4-6 at full size (20,000 pull requests): the anchors (speculation only,
 * bors-like batches of 8, serial), the configurations picked, and the self-tuned default, chosen
 * per seed from an observed window of the simulated traffic through production's reader
 * (observed-default.ts). Then each target as PASS/FAIL on the held-out figures, the closed forms
 * on saturated runs, and the idealised estimate. The exit code is 0 either way (a benchmark
 * reports, it does not gate). Options: `--pull-requests N` (held-out, 20000),
 * `--choosing-pull-requests M` (1500), `--seeds S` (3 per stage), `--seed FIRST` (1), `--workers W`
 * (worker threads, default 2), `--quick` (9 of the grid's configurations, to try the harness).
 */
import { closedFormChecks } from "./queue/closed-form-checks.js";
import { printEstimates } from "./queue/estimate-lines.js";
import { fmt, queueBenchCommandLine, WINDOW_SEED_OFFSET } from "./queue/command-line.js";
import { heldOutNames, heldOutVerdict, pickForTarget, referencePicks } from "./queue/held-out.js";
import { latencyClasses } from "./queue/latency-breakdown.js";
import { estimateLabel, observedDefaultsEmbedded } from "./queue/observed-default.js";
import { runJobs, type Job } from "./queue/parallel.js";
import { ANCHORS, label, scanPoints, type Point } from "./queue/points.js";
import { BREAK_PROBABILITY, CI_SLOTS, D_MINUTES } from "./queue/runs.js";
import { pool, type PointFigures, type RunSummary } from "./queue/summary.js";
import { defaultVerdict, figure, type Measured, type Target } from "./queue/verdicts.js";

const { split: SPLIT, workers: WORKERS, quick: QUICK } = queueBenchCommandLine();
const TARGETS: Target[] = [
  { lambda: 8, p95: 60, runs: 0.8 },
  { lambda: 16, p95: 90, runs: 0.85 },
];

function row(name: string, f: PointFigures): string {
  const state = f.unstable ? `UNSTABLE (${fmt(f.mergesPerHour, 2)} merges/h)` : "stable";
  const sentBack = f.goodDequeued > 0 ? `  ${f.goodDequeued} good pull requests sent back` : "";
  return `  ${name.padEnd(34)} mean ${fmt(f.meanMinutes).padStart(6)} min   ${figure(f)}   ${state}${sentBack}`;
}

/** Pools the runs of `jobs` (in job order) that `keep` selects. */
function pooled<J>(
  jobs: J[],
  runs: RunSummary[],
  keep: (j: J) => boolean,
): { runs: RunSummary[]; figures: PointFigures } {
  const mine = runs.filter((_, i) => keep(jobs[i]!));
  return { runs: mine, figures: pool(mine, D_MINUTES) };
}

console.log(
  `Merge queue benchmark: D = ${D_MINUTES} min, p = ${BREAK_PROBABILITY}, no flakes, k = ${CI_SLOTS} CI slots; choosing on seeds ${SPLIT.choosing.join(", ")} × ${SPLIT.choosingPullRequests} pull requests, judging on held-out seeds ${SPLIT.heldOut.join(", ")} × ${SPLIT.heldOutPullRequests}; ${WORKERS} workers`,
);
const started = Date.now();
const scan = scanPoints(QUICK);

// Stage 1: the grid on the choosing seeds, while the self-tuned defaults are observed in this thread.
type ScanJob = Job & { lambda: number; point: number };
const scanJobs: ScanJob[] = TARGETS.flatMap((t) =>
  scan.flatMap((p, point) =>
    SPLIT.choosing.map((seed) => ({
      point,
      knobs: p.knobs,
      lambda: t.lambda,
      pullRequests: SPLIT.choosingPullRequests,
      seed,
      tag: false,
    })),
  ),
);
const scanning = runJobs(scanJobs, WORKERS);
const windows = TARGETS.flatMap((t) =>
  SPLIT.heldOut.map((seed) => ({
    lambda: t.lambda,
    seed,
    windowSeed: WINDOW_SEED_OFFSET + seed,
  })),
);
const observed = await observedDefaultsEmbedded(
  windows.map((w) => ({ lambda: w.lambda, seed: w.windowSeed, repository: `bench/queue-${w.lambda}-${w.windowSeed}` })),
  WORKERS,
);
const scanRuns = await scanning;
console.log(`\nChoosing stage (${fmt((Date.now() - started) / 1000, 0)} s)`);
const scanned = new Map<number, Measured[]>();
for (const t of TARGETS) {
  console.log(`λ = ${t.lambda}/h, seeds ${SPLIT.choosing.join(", ")} × ${SPLIT.choosingPullRequests}`);
  const measured = scan.map((p, point) => ({
    name: p.name,
    figures: pooled(scanJobs, scanRuns, (j) => j.lambda === t.lambda && j.point === point).figures,
  }));
  for (const m of measured) console.log(row(m.name, m.figures));
  scanned.set(t.lambda, measured);
}

// Stage 2: anchors, the configurations picked, and the self-tuned default on the held-out seeds.
type HeldOutJob = Job & { lambda: number; name: string };
const heldOutPoints = (t: Target): Point[] => {
  const names = new Set(heldOutNames(t, scanned.get(t.lambda)!));
  return [...ANCHORS, ...scan.filter((p) => names.has(p.name))];
};
const heldOutJobs: HeldOutJob[] = TARGETS.flatMap((t) => [
  ...heldOutPoints(t).flatMap((p) =>
    SPLIT.heldOut.map((seed) => ({
      name: p.name,
      knobs: p.knobs,
      lambda: t.lambda,
      pullRequests: SPLIT.heldOutPullRequests,
      seed,
      tag: false,
    })),
  ),
  ...SPLIT.heldOut.map((seed) => ({
    name: "self-tuned default",
    knobs: observed[windows.findIndex((w) => w.lambda === t.lambda && w.seed === seed)]!.knobs,
    lambda: t.lambda,
    pullRequests: SPLIT.heldOutPullRequests,
    seed,
    tag: true,
  })),
]);
const heldOutRuns = await runJobs(heldOutJobs, WORKERS);
const results: string[] = [];
for (const t of TARGETS) {
  console.log(`\nλ = ${t.lambda}/h, held-out seeds ${SPLIT.heldOut.join(", ")} × ${SPLIT.heldOutPullRequests}`);
  const at = (name: string) => pooled(heldOutJobs, heldOutRuns, (j) => j.lambda === t.lambda && j.name === name);
  const judged = heldOutPoints(t).map((p) => ({ name: p.name, figures: at(p.name).figures }));
  for (const m of judged) console.log(row(m.name, m.figures));
  const def = at("self-tuned default");
  console.log(row("self-tuned default", def.figures));
  windows.forEach((w, i) => {
    if (w.lambda !== t.lambda) return;
    const o = observed[i]!;
    console.log(
      `    seed ${w.seed}: ${label(o.knobs)}, from a 7-day window (seed ${w.windowSeed}): ${estimateLabel(o.estimate)} (after a first day on the static defaults, which chose ${label(o.firstKnobs)})`,
    );
  });
  console.log("  the self-tuned default's merged pull requests by what happened to them (seeds pooled):");
  const pairs = def.runs.flatMap((r: RunSummary) => r.minutes.map((m, i) => [m, r.classes![i]!] as [number, string]));
  for (const c of latencyClasses(pairs)) {
    console.log(
      `    ${c.name.padEnd(40)} ${(100 * c.share).toFixed(1).padStart(5)}% of merges   mean ${fmt(c.meanMinutes).padStart(6)} min   p95 ${fmt(c.p95Minutes).padStart(6)} min   ${(100 * c.shareOfSlowest).toFixed(0).padStart(3)}% of the slowest 5%`,
    );
  }
  const choosing = scanned.get(t.lambda)!;
  const pick = pickForTarget(t, choosing);
  const heldOutOf = (m: Measured | null) => (m ? (judged.find((j) => j.name === m.name) ?? null) : null);
  const head = `λ=${t.lambda}/h stable, p95 ≤ ${t.p95} min at ≤ ${t.runs} runs per merge`;
  results.push(
    heldOutVerdict(t, head, pick?.name ?? null, pick?.figures ?? null, heldOutOf(pick)?.figures ?? null).line,
  );
  const refs = referencePicks(t, choosing);
  const references = [refs.lowestP95, refs.fewestRuns].flatMap((m) => (heldOutOf(m) ? [heldOutOf(m)!] : []));
  results.push(defaultVerdict(t, def.figures, references).line);
  const untested = [...choosing, ...judged, { figures: def.figures }].reduce((a, m) => a + m.figures.untestedMerges, 0);
  results.push(
    `${untested === 0 ? "PASS" : "FAIL"}  λ=${t.lambda}/h the base only received tested trees (${untested} untested merges, both stages)`,
  );
}
console.log(`\n(open-loop runs and observed windows: ${fmt((Date.now() - started) / 1000, 0)} s)`);
results.push(...closedFormChecks(Math.max(3000, Math.min(SPLIT.heldOutPullRequests, 8000)), SPLIT.heldOut[0]!));
console.log("\nTargets (judged on the held-out seeds)");
for (const r of results) console.log(`  ${r}`);
printEstimates(TARGETS);
