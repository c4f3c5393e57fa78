/**
 * How far the benchmark's cost and latency targets (research/anchors.md §2e) are reachable at all
 * (docs/merge-queue.md "Benchmark"): an idealised estimate, not a simulation. Its queue checks every
 * batch the moment it is formed, on top of the batches running (a serial queue), finds a failed
 * batch's culprit in one extra round, and is never slowed by a failure ahead: everything favours
 * it. It mixes batches of two sizes b1 < b2 (a share `x` of the pull requests in batches of b2).
 * With q = 1 − p, m = λD arrivals per CI run and a latency target of T·D:
 *
 * - CI runs per pull request: per batch of b, its own check, one more when it fails holding a good
 *   pull request (b > 1: 1 − q^b − p^b), and the batches started on top of it during its check, all
 *   cancelled when it fails ((1 − q^b) · S, S = m · ((1 − x)/b1 + x/b2) batches started per D),
 *   each weighing `cancelledRunWeight`: 1 counts them as whole runs (research/anchors.md §2e),
 *   0.5 by the CI time they used (started evenly during the failed check, they ran D/2 on average).
 * - Merges slower than T·D: the i-th of a batch's b pull requests waits for the b − i others
 *   (over t when fewer than b − i arrive in t, Poisson(λt)); a good one takes its wait plus D when
 *   its batch mates are good, plus 2D when one is bad (its first check fails).
 *
 * - With `failuresAhead`, a batch is also slowed by the batches running ahead of it when it starts:
 *   the first of them to fail restarts it, and its check ends D after that failure. The culprits
 *   ahead are the bad pull requests of the last D (λDp of them on average, their checks begun
 *   evenly over it), so the first failure comes after X ~ Exp(λp) (X ≥ D: none); a good pull
 *   request then takes its wait + X + D (+ D more in a failed batch). Still favourable: a batch is
 *   restarted at most once, and a failure ahead never slows a bisection.
 *
 * Both are divided by q to count per merge (bad pull requests never merge).
 */

/** Idealised cost and slow share of a mix of batch sizes. */
export interface MixEstimate {
  /** The two batch sizes, smaller first. */
  sizes: [number, number];
  /** Share of pull requests in batches of the larger size. */
  larger: number;
  runsPerMerge: number;
  /** Share of merges slower than the latency target (a p95 target allows at most 0.05). */
  slowerThanTarget: number;
}

/** The model's inputs: p, λD (arrivals per CI run) and the latency target in units of D. */
export interface TargetModel {
  p: number;
  arrivalsPerCiRun: number;
  targetInD: number;
  /** What a cancelled run counts for: 1 (default) a whole run, 0.5 the CI time it used on average. */
  cancelledRunWeight?: number;
  /** Whether a failure ahead delays a batch (default false: nothing is slowed by a failure ahead). */
  failuresAhead?: boolean;
}

/** P(Poisson(mean) ≤ k); 0 for k < 0. */
function poissonAtMost(k: number, mean: number): number {
  let term = Math.exp(-mean);
  let sum = 0;
  for (let j = 0; j <= k; j++) {
    sum += term;
    term *= mean / (j + 1);
  }
  return sum;
}

/**
 * Share of the pull requests of a batch of `b` that merge slower than the target, counted over all
 * its members (good ones only can be slow; not yet divided by q). Depends on `b` and the model only.
 */
function slowInBatch(b: number, model: TargetModel): number {
  const { p, arrivalsPerCiRun: m, targetInD: t } = model;
  const q = 1 - p;
  // P(the i-th member waits longer than w·D for the b − i after it).
  const waitsFor = (i: number, w: number) => (w < 0 ? 1 : poissonAtMost(b - i - 1, m * w));
  // The same with the delay X of a failure ahead added to the wait (in D; rate r = λDp per D).
  const r = m * p;
  const waitsOver = (i: number, w: number) => {
    if (!model.failuresAhead) return waitsFor(i, w);
    const steps = 400;
    let sum = Math.exp(-r) * waitsFor(i, w);
    for (let k = 0; k < steps; k++) {
      const x = (k + 0.5) / steps;
      sum += (r * Math.exp(-r * x) * waitsFor(i, w - x)) / steps;
    }
    return sum;
  };
  let sum = 0;
  for (let i = 1; i <= b; i++) sum += q * ((1 - q ** (b - 1)) * waitsOver(i, t - 2) + q ** (b - 1) * waitsOver(i, t - 1));
  return sum / b;
}

/** The estimate of a mix, given the slow share of each batch size (`slow`, see {@link slowInBatch}). */
function mixEstimate(sizes: [number, number], larger: number, model: TargetModel, slow: (b: number) => number): MixEstimate {
  const { p, arrivalsPerCiRun: m } = model;
  const q = 1 - p;
  const [b1, b2] = sizes;
  const started = m * ((1 - larger) / b1 + larger / b2);
  const cancelled = model.cancelledRunWeight ?? 1;
  const runs = (b: number) => (1 + (b > 1 ? 1 - q ** b - p ** b : 0) + cancelled * (1 - q ** b) * started) / b;
  return {
    sizes, larger,
    runsPerMerge: ((1 - larger) * runs(b1) + larger * runs(b2)) / q,
    slowerThanTarget: ((1 - larger) * slow(b1) + larger * slow(b2)) / q,
  };
}

/** The estimate for `sizes` [b1, b2] with a share `larger` (0..1) of pull requests in batches of b2. */
export function batchMixEstimate(sizes: [number, number], larger: number, model: TargetModel): MixEstimate {
  return mixEstimate(sizes, larger, model, (b) => slowInBatch(b, model));
}

/**
 * The cheapest mix of two batch sizes from 1 to `maxSize` (shares in steps of 1%) whose slow share
 * stays within `maxSlow`: the fewest CI runs per merge this idealised queue needs to meet the
 * latency target.
 */
export function cheapestMixWithin(maxSlow: number, model: TargetModel, maxSize = 8): MixEstimate {
  // The slow share of a batch size does not depend on the mix: computed once per size.
  const slowBySize = new Map<number, number>();
  const slow = (b: number) => {
    let share = slowBySize.get(b);
    if (share === undefined) slowBySize.set(b, (share = slowInBatch(b, model)));
    return share;
  };
  let best = mixEstimate([1, 1], 0, model, slow);
  for (let b1 = 1; b1 <= maxSize; b1++) {
    for (let b2 = b1 + 1; b2 <= maxSize; b2++) {
      for (let step = 0; step <= 100; step++) {
        const e = mixEstimate([b1, b2], step / 100, model, slow);
        if (e.slowerThanTarget <= maxSlow && e.runsPerMerge < best.runsPerMerge) best = e;
      }
    }
  }
  return best;
}
