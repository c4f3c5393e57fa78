/**
 * Answers of the GitHub test double computed from git objects alone (a diff between two commits,
 * the commits between them, whether they conflict) are the same every time for the same SHAs, so
 * they are computed once: listing hundreds of open pull requests (the request budget's benchmark)
 * would otherwise run several git processes per pull request per list.
 */
const memo = new Map<string, Promise<unknown>>();
const MAX = 20_000;

/** `compute()` once per `key` (a failure is not kept); `key` must name immutable git objects only. */
export function once<T>(key: string, compute: () => Promise<T>): Promise<T> {
  const hit = memo.get(key);
  if (hit) return hit as Promise<T>;
  const p = compute();
  memo.set(key, p);
  p.catch(() => memo.delete(key));
  if (memo.size > MAX) memo.delete(memo.keys().next().value!);
  return p;
}
