/**
 * Why the two λ = 8/h targets of research/anchors.md §2e (p95 ≤ 60 min = 2D and ≤ 0.6 CI runs per
 * merge) pull against each other (docs/merge-queue.md "Benchmark"): an idealised estimate, not a
 * simulation. Its queue checks every batch the moment it is formed, on top of the batches running
 * (a serial queue), finds a failed batch's culprit in one extra round, never checks a pull request
 * alone, and is never slowed by a failure ahead: everything favours it. For batches of 2 and 3
 * (a share `x` of the pull requests in batches of 3), with q = 1 − p and m = λD arrivals per CI run:
 *
 * - CI runs per pull request: per batch of b, its own check, one more when it fails holding a good
 *   pull request (1 − q^b − p^b), and the batches started on top of it during its check, all
 *   cancelled when it fails ((1 − q^b) · S, S = m · ((1 − x)/2 + x/3) batches started per D).
 * - Merges slower than 2D: a good pull request that is not the last of its batch to arrive waited
 *   for the others, so it is over 2D when a batch mate is bad (its first check fails) or when its
 *   wait exceeds D (fewer than b − i arrivals in D for the i-th member, Poisson(m)).
 *
 * Both are divided by q to count per merge (bad pull requests never merge).
 */

/** Idealised cost and slow share of a mix of batches of 2 and 3. */
export interface MixEstimate {
  /** Share of pull requests in batches of 3 (the rest in batches of 2). */
  triples: number;
  runsPerMerge: number;
  /** Share of merges slower than 2D (the p95 ≤ 2D target needs at most 0.05). */
  slowerThan2D: number;
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
 * The estimate for a share `triples` (0..1) of pull requests in batches of 3, the rest in
 * batches of 2; `p` the probability a pull request breaks the build, `arrivalsPerCiRun` = λD.
 */
export function batchMixEstimate(triples: number, p: number, arrivalsPerCiRun: number): MixEstimate {
  const q = 1 - p;
  const started = arrivalsPerCiRun * ((1 - triples) / 2 + triples / 3);
  const runs = (b: number) => (1 + (1 - q ** b - p ** b) + (1 - q ** b) * started) / b;
  const slow = (b: number) => {
    let sum = 0;
    for (let i = 1; i < b; i++) sum += q * (1 - q ** (b - 1) * (1 - poissonAtMost(b - i - 1, arrivalsPerCiRun)));
    return sum / b;
  };
  return {
    triples,
    runsPerMerge: ((1 - triples) * runs(2) + triples * runs(3)) / q,
    slowerThan2D: ((1 - triples) * slow(2) + triples * slow(3)) / q,
  };
}

/**
 * The cheapest mix (in steps of 1%) whose slow share stays within `maxSlow`: the fewest CI runs per
 * merge this idealised queue needs to keep p95 ≤ 2D.
 */
export function cheapestMixWithin(maxSlow: number, p: number, arrivalsPerCiRun: number): MixEstimate {
  let best = batchMixEstimate(0, p, arrivalsPerCiRun);
  for (let step = 1; step <= 100; step++) {
    const e = batchMixEstimate(step / 100, p, arrivalsPerCiRun);
    if (e.slowerThan2D <= maxSlow && e.runsPerMerge < best.runsPerMerge) best = e;
  }
  return best;
}
