/**
 * "Did you mean" suggestions for misspelt keys and attribute names (docs/configuration.md
 * "Errors"): the closest known name by edit distance, when it is close enough to be a typo.
 */

/** Edit distance counting a swap of two adjacent letters as one edit (optimal string alignment). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * The known name closest to `name`, or null when none is within a third of its length (at
 * least 1, at most 3 edits).
 */
export function closest(name: string, known: Iterable<string>): string | null {
  const limit = Math.min(3, Math.max(1, Math.floor(name.length / 3)));
  let best: string | null = null;
  let bestDistance = limit + 1;
  for (const candidate of known) {
    // The distance is at least the difference of the lengths: most candidates need no matrix.
    if (Math.abs(candidate.length - name.length) >= bestDistance) continue;
    const d = distance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** ` (did you mean "x"?)` or "". */
export function didYouMean(name: string, known: Iterable<string>): string {
  const c = closest(name, known);
  return c === null ? "" : ` (did you mean "${c}"?)`;
}
