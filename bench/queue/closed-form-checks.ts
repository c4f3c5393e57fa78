/**
 * The closed forms of docs/benchmarks.md "Closed forms", checked on saturated runs of the real
 * engine (one seed): prints each figure and returns one PASS/FAIL line per form.
 */
import {
  borsRunsPerPull,
  relativeError,
  serialMergesPerHour,
  speculativeResolvedPerHour,
  yardmasterPairRunsPerResolved,
} from "./closed-forms.js";
import { BREAK_PROBABILITY, D_MINUTES, saturated } from "./runs.js";

const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");
const fmt = (x: number, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : "-");

/** Runs the saturated checks with `pullRequests` pull requests each; returns the verdict lines. */
export function closedFormChecks(pullRequests: number, seed: number): string[] {
  const results: string[] = [];
  const dHours = D_MINUTES / 60;
  const fixed = (b: number, k: number) => ({
    batchSize: { min: b, max: b },
    batchMaxWaitSeconds: 0,
    maxParallelChecks: k,
  });
  console.log("\nClosed forms (saturated runs, 60 pull requests always queued)");
  const serial = saturated(fixed(1, 1), pullRequests, seed);
  const serialExpected = serialMergesPerHour(BREAK_PROBABILITY, dHours);
  console.log(`  serial capacity q/D: expected ${fmt(serialExpected)} merges/h, measured ${fmt(serial.mergesPerHour)}`);
  results.push(
    `${verdict(relativeError(serial.mergesPerHour, serialExpected) <= 0.05)}  serial capacity q/D within 5%`,
  );
  const spec = saturated(fixed(1, 10), pullRequests, seed);
  const specExpected = speculativeResolvedPerHour(BREAK_PROBABILITY, 10, dHours);
  console.log(
    `  speculative capacity (1-q^10)/(pD): expected ${fmt(specExpected)} resolved/h, measured ${fmt(spec.resolvedPerHour)}`,
  );
  results.push(
    `${verdict(relativeError(spec.resolvedPerHour, specExpected) <= 0.05)}  speculative capacity (1-q^w)/(pD), w=10, within 5%`,
  );
  const pair = saturated(fixed(2, 1), pullRequests, seed);
  const pairMeasured = pair.ciRuns / (pair.merged + pair.dequeued);
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
    const run = saturated(fixed(b, 1), pullRequests, seed);
    const measured = run.ciRuns / (run.merged + run.dequeued);
    const bors = borsRunsPerPull(b, BREAK_PROBABILITY);
    console.log(
      `  batches of ${b}, one slot: measured ${fmt(measured, 4)} runs per resolved pull request; bors c_B(${b}) = ${fmt(bors, 4)} (prefix bisection, not halving: reference only)`,
    );
    results.push(`${verdict(measured <= bors * 1.05)}  batches of ${b} cost no more than bors c_B(${b}) (+5%)`);
  }
  return results;
}
