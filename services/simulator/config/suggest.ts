/**
 * "Did you mean" suggestions for misspelt keys and attribute names (docs/configuration.md
 * "Errors"): the closest known name by edit distance, when it is close enough to be a typo.
 */

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
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
