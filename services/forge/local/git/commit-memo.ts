/**
 * A bounded memo for git results that depend only on commits named by their full SHAs (merge base,
 * commits between, diff, conflict of two commits): git objects are content-addressed, so such a
 * result can never change, and computing it again costs new `git` processes, which is what the
 * local forge's reads spend most of their time on (each pull request snapshot starts about ten).
 * Results of revisions that are not full SHAs (branch names, `sha^`) and failures are never kept.
 * Rules: docs/local-forge.md "Running git".
 */
import { LRUCache } from "lru-cache";
import type { BareRepo } from "./bare-repo.js";
import { isFullSha } from "./full-sha.js";

/** Results kept, over every repository of the process (least recently used dropped first). */
const MAX_ENTRIES = 5000;
/**
 * Bound on the results' size, in characters of their JSON text (about 32 MiB of strings): a pull
 * request with thousands of commits weighs as much as thousands of small answers.
 */
const MAX_SIZE = 32 * 1024 * 1024;

const memo = new LRUCache<string, Promise<unknown>>({ max: MAX_ENTRIES, maxSize: MAX_SIZE });

/** The weight of a result once known: the length of its JSON text (at least 1). */
function sizeOf(value: unknown): number {
  return Math.max(1, JSON.stringify(value ?? null).length);
}

/**
 * Runs `compute` once per (repository, `what`, `shas`) while the result is kept, and shares its
 * promise with concurrent callers. Computes without remembering when any of `shas` is not a full
 * 40-hex SHA. A rejected computation is forgotten, so the next call runs it again.
 * Callers must not mutate the value they receive: it is shared.
 * @param what names the computation (part of the key)
 * @throws whatever `compute` throws
 */
export function rememberForCommits<T>(
  repo: BareRepo,
  what: string,
  shas: readonly string[],
  compute: () => Promise<T>,
): Promise<T> {
  if (!shas.every(isFullSha)) return compute();
  const key = `${repo.gitDir}\0${what}\0${shas.join("\0")}`;
  const known = memo.get(key) as Promise<T> | undefined;
  if (known !== undefined) return known;
  const result = compute();
  memo.set(key, result, { size: 1 });
  result.then(
    (value) => {
      // Weighed once it is known (a pending result counts 1); gone already if it was evicted.
      // lru-cache keeps the old size when the same value is set again: delete, then set.
      if (memo.peek(key) !== result) return;
      memo.delete(key);
      memo.set(key, result, { size: Math.min(sizeOf(value), MAX_SIZE) });
    },
    () => {
      if (memo.peek(key) === result) memo.delete(key);
    },
  );
  return result;
}
