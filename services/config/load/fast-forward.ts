/**
 * `fast-forward` is serial-only (docs/domain.md §1.2). A fast-forward
 * moves the base branch to the commit that was tested, so that commit must descend from the
 * base as the batches ahead leave it. Only `merge_queue.mode: serial` checks every batch on top
 * of all the batches ahead (docs/domain.md §3.3, docs/merge-queue.md rule 4); `parallel`
 * checks batches of disjoint scopes side by side on the base, and `isolated` checks each batch
 * on the base alone, so the second batch to merge could not be fast-forwarded. Speculative
 * checks (`max_parallel_checks` > 1) and batches (`batch_size` > 1) are serial too: with
 * fast-forward the engine builds each batch on the check commit of the batch ahead
 * (services/engine/checks.ts). docs/configuration.md "Rules across keys".
 */
import type { MergeQueueConfig } from "../model.js";
import type { RawQueueRule } from "../schema/queue-rules.js";

/**
 * The error of a queue rule that merges with fast-forward outside serial mode, or null
 * (docs/domain.md §1.2 "Serial-only fast-forward", §3.3 modes).
 * @param rule the queue rule as written, `defaults.queue_rule` applied
 * @param path the path of the queue rule (`["queue_rules", index]`)
 * @param mode the effective `merge_queue.mode`
 * @returns `{path, message}` at the key that asks for fast-forward (`merge_method`, or the
 *   deprecated `queue_branch_merge_method` when only it does), naming `merge_queue.mode` and
 *   the mode found; null in serial mode or with another merge method. Never throws.
 */
export function fastForwardModeIssue(
  rule: Pick<RawQueueRule, "merge_method" | "queue_branch_merge_method">,
  path: readonly (string | number)[],
  mode: MergeQueueConfig["mode"],
): { path: (string | number)[]; message: string } | null {
  if (mode === "serial") return null;
  const key =
    rule.merge_method === "fast-forward"
      ? "merge_method"
      : rule.queue_branch_merge_method === "fast-forward"
        ? "queue_branch_merge_method"
        : null;
  if (key === null) return null;
  return {
    path: [...path, key],
    message: `${key} fast-forward needs merge_queue.mode serial, got mode ${mode}: a fast-forward moves the base branch to the tested commit, and only serial mode checks each batch on top of the batches ahead`,
  };
}
