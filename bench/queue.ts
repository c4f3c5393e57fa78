/**
 * Merge queue benchmark (`npx tsx bench/queue.ts`): the real engine in virtual time, D = 30 min CI,
 * p = 0.05, k = 10 CI slots, 20,000 pull requests per queue, at λ = 8/h and 16/h; Yardmaster's
 * configuration next to a serial queue and a speculation-only queue (window 10), then the closed
 * forms of docs/benchmarks.md "Closed forms" checked within 5% on saturated runs. Prints PASS/FAIL per
 * target, then an idealised estimate of whether the cost and latency targets can hold together; the exit code is 0
 * either way (a benchmark reports, it does not gate). Options:
 * `--pull-requests N` (default 20000), `--seed S` (default 1). Method: docs/benchmarks.md "The merge queue".
 */
import { parseArgs } from "node:util";
import { BREAK_PROBABILITY, D_MINUTES, QUEUES, openLoop, saturated } from "./queue/runs.js";
import { LatencyTagger } from "./queue/latency-breakdown.js";
import { cheapestMixWithin } from "./queue/target-conflict.js";
import {
  borsRunsPerPull,
  relativeError,
  serialMergesPerHour,
  speculativeResolvedPerHour,
  yardmasterPairRunsPerResolved,
} from "./queue/closed-forms.js";
import type { WhatIfReport } from "../services/engine/index.js";

const { values } = parseArgs({
  options: { "pull-requests": { type: "string", default: "20000" }, seed: { type: "string", default: "1" } },
});
const N = Number(values["pull-requests"]);
const SEED = Number(values.seed);
const D_HOURS = D_MINUTES / 60;
const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");
const fmt = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : "-");

function row(name: string, r: WhatIfReport): string {
  const state = r.unstable
    ? `UNSTABLE (backlog over 300 after ${r.arrived} arrivals; ${fmt(r.mergesPerHour, 2)} merges/h)`
    : "stable";
  return `  ${name.padEnd(24)} mean ${fmt(r.meanMinutes).padStart(7)} min   p95 ${fmt(r.p95Minutes).padStart(7)} min   runs/merge ${fmt(r.runsPerMerge, 3)} (CI time ${fmt(r.ciMinutesPerMerge / D_MINUTES, 3)} D)   ${state}`;
}

console.log(
  `Merge queue benchmark: D = ${D_MINUTES} min, p = ${BREAK_PROBABILITY}, k = 10 CI slots, ${N} pull requests per queue, seed ${SEED}`,
);
const yardmaster = QUEUES[0]!;
console.log(
  `Yardmaster: batch_size {min: ${yardmaster.knobs.batchSize.min}, max: ${yardmaster.knobs.batchSize.max}}, batch_max_wait_time ${yardmaster.knobs.batchMaxWaitSeconds / 60} min, max_parallel_checks ${yardmaster.knobs.maxParallelChecks}`,
);
const targets: { lambda: number; p95: number }[] = [
  { lambda: 8, p95: 60 },
  { lambda: 16, p95: 75 },
];
const results: string[] = [];
for (const { lambda, p95 } of targets) {
  console.log(`\nλ = ${lambda}/h`);
  const tagger = new LatencyTagger();
  const reports = QUEUES.map((q, i) => ({
    name: q.name,
    report: openLoop(q.knobs, lambda, N, SEED, i === 0 ? tagger.observe : undefined),
  }));
  for (const { name, report } of reports) console.log(row(name, report));
  const y = reports[0]!.report;
  console.log("  yardmaster's merged pull requests by what happened to them:");
  for (const c of tagger.breakdown(y)) {
    console.log(
      `    ${c.name.padEnd(40)} ${(100 * c.share).toFixed(1).padStart(5)}% of merges   mean ${fmt(c.meanMinutes).padStart(6)} min   p95 ${fmt(c.p95Minutes).padStart(6)} min   ${(100 * c.shareOfSlowest).toFixed(0).padStart(3)}% of the slowest 5%`,
    );
  }
  results.push(`${verdict(!y.unstable)}  λ=${lambda}/h stable`);
  results.push(
    `${verdict(!y.unstable && y.p95Minutes <= p95)}  λ=${lambda}/h p95 ≤ ${p95} min (measured ${fmt(y.p95Minutes)})`,
  );
  results.push(
    `${verdict(!y.unstable && y.runsPerMerge <= 0.6)}  λ=${lambda}/h ≤ 0.6 CI runs per merge (measured ${fmt(y.runsPerMerge, 3)})`,
  );
  results.push(
    `${verdict(y.untestedMerges === 0 && y.exactnessViolations === 0)}  λ=${lambda}/h the base only received tested trees (${y.untestedMerges} untested merges)`,
  );
}

console.log("\nClosed forms (saturated runs, 60 pull requests always queued)");
const closed = Math.max(3000, Math.min(N, 8000));
const serialRun = saturated(
  { batchSize: { min: 1, max: 1 }, batchMaxWaitSeconds: 0, maxParallelChecks: 1 },
  closed,
  SEED,
);
const serialExpected = serialMergesPerHour(BREAK_PROBABILITY, D_HOURS);
console.log(
  `  serial capacity q/D: expected ${fmt(serialExpected, 2)} merges/h, measured ${fmt(serialRun.mergesPerHour, 2)}`,
);
results.push(
  `${verdict(relativeError(serialRun.mergesPerHour, serialExpected) <= 0.05)}  serial capacity q/D within 5%`,
);
const specRun = saturated(
  { batchSize: { min: 1, max: 1 }, batchMaxWaitSeconds: 0, maxParallelChecks: 10 },
  closed,
  SEED,
);
const specExpected = speculativeResolvedPerHour(BREAK_PROBABILITY, 10, D_HOURS);
console.log(
  `  speculative capacity (1-q^10)/(pD): expected ${fmt(specExpected, 2)} resolved/h, measured ${fmt(specRun.resolvedPerHour, 2)}`,
);
results.push(
  `${verdict(relativeError(specRun.resolvedPerHour, specExpected) <= 0.05)}  speculative capacity (1-q^w)/(pD), w=10, within 5%`,
);
const pairRun = saturated(
  { batchSize: { min: 2, max: 2 }, batchMaxWaitSeconds: 0, maxParallelChecks: 1 },
  closed,
  SEED,
);
const pairMeasured = pairRun.ciRuns / (pairRun.merged + pairRun.dequeued);
const pairOwn = yardmasterPairRunsPerResolved(BREAK_PROBABILITY);
const pairBors = borsRunsPerPull(2, BREAK_PROBABILITY);
console.log(
  `  batches of 2, one slot: measured ${fmt(pairMeasured, 4)} runs per resolved pull request; Yardmaster's rule (2-q²)/(1+q²) = ${fmt(pairOwn, 4)}; bors c_B(2) = ${fmt(pairBors, 4)}`,
);
results.push(
  `${verdict(relativeError(pairMeasured, pairOwn) <= 0.05)}  bisection cost, batches of 2: (2-q²)/(1+q²) within 5%`,
);
results.push(`${verdict(relativeError(pairMeasured, pairBors) <= 0.05)}  bors c_B(2) within 5%`);
for (const b of [4, 8]) {
  const run = saturated({ batchSize: { min: b, max: b }, batchMaxWaitSeconds: 0, maxParallelChecks: 1 }, closed, SEED);
  const measured = run.ciRuns / (run.merged + run.dequeued);
  console.log(
    `  batches of ${b}, one slot: measured ${fmt(measured, 4)} runs per resolved pull request; bors c_B(${b}) = ${fmt(borsRunsPerPull(b, BREAK_PROBABILITY), 4)} (prefix bisection, not halving: reference only)`,
  );
  results.push(
    `${verdict(measured <= borsRunsPerPull(b, BREAK_PROBABILITY) * 1.05)}  batches of ${b} cost no more than bors c_B(${b}) (+5%)`,
  );
}

console.log("\nTargets");
for (const r of results) console.log(`  ${r}`);
console.log(
  "\nIdealised estimate (bench/queue/target-conflict.ts: a queue favoured in every way), fewest CI runs per merge that keep",
);
for (const { lambda, p95 } of targets) {
  const variants = [
    { failuresAhead: false, innocentsPaidBy: "free", ahead: "never slowed by a failure ahead" },
    { failuresAhead: true, innocentsPaidBy: "free", ahead: "slowed by failures ahead" },
    {
      failuresAhead: true,
      innocentsPaidBy: "holding",
      ahead: "slowed by failures ahead, culprit search paid by holding",
    },
    {
      failuresAhead: true,
      innocentsPaidBy: "speculation",
      ahead: "slowed by failures ahead, culprit search paid by speculation",
    },
  ] as const;
  for (const { failuresAhead, innocentsPaidBy, ahead } of variants) {
    for (const [weight, counting] of [
      [1, "cancelled runs counted whole"],
      [0.5, "cancelled runs counted by the CI time they used"],
    ] as const) {
      const best = cheapestMixWithin(0.05, {
        p: BREAK_PROBABILITY,
        arrivalsPerCiRun: lambda * D_HOURS,
        targetInD: p95 / D_MINUTES,
        cancelledRunWeight: weight,
        failuresAhead,
        innocentsPaidBy,
      });
      const [b1, b2] = best.sizes;
      const verdictText = best.runsPerMerge <= 0.6 ? "both targets reachable" : "the two targets conflict";
      console.log(
        `  95% of merges within ${p95} min at λ = ${lambda}/h, ${ahead}, ${counting}: ${fmt(best.runsPerMerge, 3)} (batches of ${b1} and ${b2}, ${Math.round(best.larger * 100)}% in ${b2}s; ${fmt(100 * best.slowerThanTarget)}% slower): ${verdictText}`,
      );
    }
  }
}
