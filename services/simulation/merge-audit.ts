/**
 * The virtual forge's merge (virtual-forge.ts), audited: a merge must start from the expected
 * base, merge no pull request twice, and leave as base tip the tree of a check that passed
 * (otherwise it is an untested merge; `exactTree: true` must never be wrong); a merge of a pull
 * request a scheduled freeze holds is counted too (docs/merge-queue.md "Simulation").
 */
import type { EngineEffect, EngineEvent } from "../engine/index.js";
import type { ForgeStats } from "./simulation-types.js";
import type { Tree, TreeHistory } from "./tree-history.js";

/** What the audit reads: the base history, the SHAs whose check passed, the freeze, the counters. */
export interface MergeAuditContext {
  history: TreeHistory;
  passed: ReadonlySet<string>;
  stats: ForgeStats;
  /** Whether the freeze holds pull request `n` now. */
  frozen: (n: number) => boolean;
}

/**
 * Performs `merge_batch` on the virtual base: emits `merge_failed` (base_moved) when the base is
 * not `expectedBaseSha`, else moves the base and emits `merge_completed` and `base_branch_moved`,
 * counting double, frozen, untested and inexact merges in `ctx.stats`.
 */
export function auditedMerge(
  ctx: MergeAuditContext,
  effect: Extract<EngineEffect, { kind: "merge_batch" }>,
  emit: (e: EngineEvent) => void,
): void {
  const { history, stats } = ctx;
  if (history.baseSha !== effect.expectedBaseSha) {
    stats.refusedMerges++;
    emit({
      type: "merge_failed",
      batchId: effect.batchId,
      reason: "base_moved",
      pullRequest: null,
      currentBaseSha: history.baseSha,
      message: "the base moved",
    });
    return;
  }
  const numbers = effect.pulls.map((p) => p.number);
  if (numbers.some((n) => history.merged(n))) stats.doubleMerges++;
  if (numbers.some(ctx.frozen)) stats.frozenMerges++;
  const result: Tree = { tip: history.lastTip, extra: [...new Set(numbers)].sort((a, b) => a - b) };
  const tested = history.tree(effect.checkSha);
  const exact = tested !== undefined && ctx.passed.has(effect.checkSha) && history.same(result, tested);
  if (!exact) stats.untestedMerges++;
  if (effect.exactTree && !exact) stats.exactnessViolations++;
  const sha = history.addTip(numbers.filter((n) => !history.merged(n)));
  stats.merges++;
  emit({ type: "merge_completed", batchId: effect.batchId, newBaseSha: sha });
  emit({ type: "base_branch_moved", branch: effect.baseRef, sha });
}
