/**
 * How far the benchmark's cost and latency targets (docs/benchmarks.md "Rules and targets") are reachable at all
 * (docs/benchmarks.md "The merge queue"): an idealised estimate, not a simulation. Its queue checks every
 * batch the moment it is formed, on top of the batches running (a serial queue), finds a failed
 * batch's culprit in one extra round, and is never slowed by a failure ahead: everything favours
 * it. It mixes batches of two sizes b1 < b2 (a share `x` of the pull requests in batches of b2).
 * With q = 1 − p, m = λD arrivals per CI run and a latency target of T·D:
 *
 * - CI runs per pull request: per batch of b, its own check, one more when it fails holding a good
 *   pull request (b > 1: 1 − q^b − p^b), and the batches started on top of it during its check, all
 *   cancelled when it fails ((1 − q^b) · S, S = m · ((1 − x)/b1 + x/b2) batches started per D),
 *   each weighing `cancelledRunWeight`: 1 counts them as whole runs (docs/benchmarks.md "Rules and targets"),
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
 * - With `innocentsPaidBy`, the one extra round that finds a failed batch's culprit is paid for.
 *   Its good pull requests merge when that round ends, D after the failure; a batch formed during
 *   the round cannot know which of them will be in the base before it, so either it waits for the
 *   round's end (`"holding"`: a batch about to start finds a round in progress with probability
 *   1 − e^−F, F = failing batches started per D, and then waits U·D more, U ~ Uniform(0, 1)), or
 *   it is checked once per possible culprit of the failed batch and the b − 1 wrong versions are
 *   cancelled at the round's end (`"speculation"`: (1 − q^b) · S · (b − 1) more cancelled runs per
 *   batch of b). `"free"` (the default) is neither: the estimate above.
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
  /** What merging a failed batch's good pull requests one round after the failure costs (default "free"). */
  innocentsPaidBy?: InnocentsPayment;
}

/** How the batches formed during a culprit search pay for its good pull requests merging first (see above). */
export type InnocentsPayment = "free" | "holding" | "speculation";

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
 * its members (good ones only can be slow; not yet divided by q): `direct` when the batch starts as
 * soon as it is formed, `held` when it first waits U·D, U ~ Uniform(0, 1), for a culprit search
 * to end (holding). Depends on `b` and the model only.
 */
function slowInBatch(b: number, model: TargetModel): { direct: number; held: number } {
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
  // The same with the wait U for a culprit search added.
  const waitsHeld = (i: number, w: number) => {
    const steps = 40;
    let sum = 0;
    for (let k = 0; k < steps; k++) sum += waitsOver(i, w - (k + 0.5) / steps) / steps;
    return sum;
  };
  const share = (waits: (i: number, w: number) => number) => {
    let sum = 0;
    for (let i = 1; i <= b; i++) sum += q * ((1 - q ** (b - 1)) * waits(i, t - 2) + q ** (b - 1) * waits(i, t - 1));
    return sum / b;
  };
  return { direct: share(waitsOver), held: model.innocentsPaidBy === "holding" ? share(waitsHeld) : 0 };
}

/** S and F of a mix: batches started per D, and how many of them fail. */
function startedPerD(
  sizes: [number, number],
  larger: number,
  model: TargetModel,
): { started: number; failing: number } {
  const { p, arrivalsPerCiRun: m } = model;
  const [b1, b2] = sizes;
  return {
    started: m * ((1 - larger) / b1 + larger / b2),
    failing: m * (((1 - larger) / b1) * (1 - (1 - p) ** b1) + (larger / b2) * (1 - (1 - p) ** b2)),
  };
}

/** CI runs per merge of a mix. */
function mixRuns(sizes: [number, number], larger: number, model: TargetModel): number {
  const { p } = model;
  const q = 1 - p;
  const { started } = startedPerD(sizes, larger, model);
  const cancelled = model.cancelledRunWeight ?? 1;
  const versions = (b: number) => (model.innocentsPaidBy === "speculation" ? b : 1);
  const runs = (b: number) =>
    (1 + (b > 1 ? 1 - q ** b - p ** b : 0) + cancelled * (1 - q ** b) * started * versions(b)) / b;
  return ((1 - larger) * runs(sizes[0]) + larger * runs(sizes[1])) / q;
}

/** The slow shares of a batch size, computed once per size (see {@link slowInBatch}). */
function slowShares(model: TargetModel): (b: number) => { direct: number; held: number } {
  const known = new Map<number, { direct: number; held: number }>();
  return (b) => {
    let shares = known.get(b);
    if (shares === undefined) known.set(b, (shares = slowInBatch(b, model)));
    return shares;
  };
}

/**
 * Share of merges slower than the target for a mix. Holding: a batch finds a culprit search in
 * progress with probability 1 − e^−F.
 */
function mixSlow(
  sizes: [number, number],
  larger: number,
  model: TargetModel,
  slow: (b: number) => { direct: number; held: number },
): number {
  const inRound = model.innocentsPaidBy === "holding" ? 1 - Math.exp(-startedPerD(sizes, larger, model).failing) : 0;
  const of = (b: number) => (1 - inRound) * slow(b).direct + inRound * slow(b).held;
  return ((1 - larger) * of(sizes[0]) + larger * of(sizes[1])) / (1 - model.p);
}

/** The estimate for `sizes` [b1, b2] with a share `larger` (0..1) of pull requests in batches of b2. */
export function batchMixEstimate(sizes: [number, number], larger: number, model: TargetModel): MixEstimate {
  return {
    sizes,
    larger,
    runsPerMerge: mixRuns(sizes, larger, model),
    slowerThanTarget: mixSlow(sizes, larger, model, slowShares(model)),
  };
}

/**
 * The cheapest mix of two batch sizes from 1 to `maxSize` (shares in steps of 1%) whose slow share
 * stays within `maxSlow`: the fewest CI runs per merge this idealised queue needs to meet the
 * latency target.
 */
export function cheapestMixWithin(maxSlow: number, model: TargetModel, maxSize = 8): MixEstimate {
  const slow = slowShares(model);
  let best = batchMixEstimate([1, 1], 0, model);
  for (let b1 = 1; b1 <= maxSize; b1++) {
    for (let b2 = b1 + 1; b2 <= maxSize; b2++) {
      for (let step = 0; step <= 100; step++) {
        const larger = step / 100;
        const runsPerMerge = mixRuns([b1, b2], larger, model);
        // The slow share costs integrals: only worth computing for a mix that would be cheaper.
        if (runsPerMerge >= best.runsPerMerge) continue;
        const slowerThanTarget = mixSlow([b1, b2], larger, model, slow);
        if (slowerThanTarget <= maxSlow) best = { sizes: [b1, b2], larger, runsPerMerge, slowerThanTarget };
      }
    }
  }
  return best;
}
