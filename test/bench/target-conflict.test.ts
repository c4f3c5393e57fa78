/**
 * The idealised estimate behind the benchmark's note on its λ = 8/h targets
 * (bench/queue/target-conflict.ts, docs/merge-queue.md "Benchmark"), checked at points worked out
 * by hand and against its own monotonicity.
 */
import { describe, expect, it } from "vitest";
import { batchMixEstimate, cheapestMixWithin } from "../../bench/queue/target-conflict.js";

describe("the idealised batch-mix estimate", () => {
  it("matches hand-computed values for batches of 2 only at p = 0.05, λD = 4", () => {
    // runs: (1 + (1 − .9025 − .0025) + .0975 · 2) / 2 / .95 = .679; slow: .95 · (1 − .95 · (1 − e^−4)) / 2 / .95 = .0337
    const pairs = batchMixEstimate(0, 0.05, 4);
    expect(pairs.runsPerMerge).toBeCloseTo(0.679, 3);
    expect(pairs.slowerThan2D).toBeCloseTo(0.0337, 4);
  });

  it("trades CI runs for slow merges as the share of batches of 3 grows", () => {
    const shares = [0, 0.25, 0.5, 0.75, 1].map((x) => batchMixEstimate(x, 0.05, 4));
    for (let i = 1; i < shares.length; i++) {
      expect(shares[i]!.runsPerMerge).toBeLessThan(shares[i - 1]!.runsPerMerge);
      expect(shares[i]!.slowerThan2D).toBeGreaterThan(shares[i - 1]!.slowerThan2D);
    }
  });

  it("needs more than 0.6 runs per merge to keep 95% of merges within 2D at λ = 8/h, D = 30 min", () => {
    const best = cheapestMixWithin(0.05, 0.05, 4);
    expect(best.slowerThan2D).toBeLessThanOrEqual(0.05);
    expect(best.runsPerMerge).toBeGreaterThan(0.6);
    expect(best.runsPerMerge).toBeLessThan(0.65);
  });
});
