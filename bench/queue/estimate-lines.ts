/**
 * Prints the idealised estimate of bench/queue/target-conflict.ts for each rate's latency bound:
 * the fewest CI runs per merge that keep 95% of merges within the bound, for a queue favoured in
 * every way (docs/benchmarks.md "The merge queue").
 */
import { BREAK_PROBABILITY, D_MINUTES } from "./runs.js";
import { cheapestMixWithin } from "./target-conflict.js";

const VARIANTS = [
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

/** One line per variant and counting, for each `{lambda, p95, runs}` target (p95 in minutes). */
export function printEstimates(targets: { lambda: number; p95: number; runs: number }[]): void {
  const fmt = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : "-");
  console.log(
    "\nIdealised estimate (bench/queue/target-conflict.ts: a queue favoured in every way), fewest CI runs per merge that keep",
  );
  for (const { lambda, p95, runs } of targets) {
    for (const { failuresAhead, innocentsPaidBy, ahead } of VARIANTS) {
      for (const [weight, counting] of [
        [1, "cancelled runs counted whole"],
        [0.5, "cancelled runs counted by the CI time they used"],
      ] as const) {
        const best = cheapestMixWithin(0.05, {
          p: BREAK_PROBABILITY,
          arrivalsPerCiRun: (lambda * D_MINUTES) / 60,
          targetInD: p95 / D_MINUTES,
          cancelledRunWeight: weight,
          failuresAhead,
          innocentsPaidBy,
        });
        const [b1, b2] = best.sizes;
        const text = best.runsPerMerge <= runs ? "both targets reachable" : "the two targets conflict";
        console.log(
          `  95% of merges within ${p95} min at λ = ${lambda}/h, ${ahead}, ${counting}: ${fmt(best.runsPerMerge, 3)} (batches of ${b1} and ${b2}, ${Math.round(best.larger * 100)}% in ${b2}s; ${fmt(100 * best.slowerThanTarget)}% slower): ${text} at ≤ ${runs} runs`,
        );
      }
    }
  }
}
