/** Whether a check still describes what would merge (docs/merge-queue.md "The rules in plain English", rule 8). */
import type { Ctx } from "./context.js";

/**
 * Whether a check's tree equals the current base plus `merging`: the queue merges since the
 * check's base must be exactly the rest of the pull requests it included.
 */
export function isExactTree(
  ctx: Ctx,
  branch: string,
  checkBaseSha: string,
  included: number[],
  merging: number[],
): boolean {
  const base = ctx.base(branch);
  const start = base.history.findIndex((h) => h.sha === checkBaseSha);
  if (start < 0) return false;
  const applied = new Set([...base.history.slice(start + 1).flatMap((h) => h.mergedPulls), ...merging]);
  return (
    applied.size === included.length &&
    included.every((n) => applied.has(n)) &&
    base.history.slice(start + 1).flatMap((h) => h.mergedPulls).length + merging.length === applied.size
  );
}
