/**
 * Closed forms of docs/benchmarks.md "Closed forms" (no flakes; each pull request breaks the build
 * independently with probability p, q = 1 - p; CI takes D), and the exact cost of Yardmaster's own
 * bisection for batches of two (docs/benchmarks.md "The merge queue").
 */

/** Serial queue: merges per hour, q / D (D in hours). */
export function serialMergesPerHour(p: number, dHours: number): number {
  return (1 - p) / dHours;
}

/** Saturated speculative window w: pull requests resolved per hour, (1 - q^w) / (p D). */
export function speculativeResolvedPerHour(p: number, w: number, dHours: number): number {
  return (1 - (1 - p) ** w) / (p * dHours);
}

/** bors recursive halving, b = 2^k: CI runs per pull request, [1 + Σ_{j=1..k} 2^j (1 - q^{b/2^{j-1}})] / b. */
export function borsRunsPerPull(b: number, p: number): number {
  const q = 1 - p;
  let sum = 1;
  for (let j = 1; 2 ** j <= b; j++) sum += 2 ** j * (1 - q ** (b / 2 ** (j - 1)));
  return sum / b;
}

/**
 * Yardmaster, batches of 2, one checks slot, saturated: a batch costs 1 run, plus 1 diagnostic run
 * (the prefix [first]) when it fails (probability 1 - q²). It resolves both pull requests when it
 * passes; when it fails it resolves one (the culprit by elimination, or the first when the prefix
 * fails) and re-embarks the other, whose fate is then independent. Runs per resolved pull request:
 * (2 - q²) / (1 + q²).
 */
export function yardmasterPairRunsPerResolved(p: number): number {
  const q2 = (1 - p) ** 2;
  return (2 - q2) / (1 + q2);
}

/** |measured / expected - 1|. */
export function relativeError(measured: number, expected: number): number {
  return Math.abs(measured / expected - 1);
}
