/**
 * Queue order (docs/domain.md §3.1-3.2): batches in train order, their members in order, then
 * the waiting pull requests sorted by effective priority (queue rule rank x 10000 + priority,
 * highest first), then by time queued and order of entry (oldest first). Positions are 0-based.
 */
import type { Ctx } from "./context.js";
import type { PullEntry, Train } from "./state.js";

/** Priority used for ordering: the queue rule's file-order rank dominates the priority (1-10000). */
export function effectivePriority(ctx: Ctx, pull: PullEntry): number {
  return (ctx.rule(pull.queueRule)?.rank ?? 0) * 10000 + pull.priority;
}

/**
 * "low", "medium", "high" or the number as text (docs/api.md "Merge queue status", BatchPullRequest.priority_alias).
 */
export function priorityAlias(priority: number): string {
  return priority === 1000 ? "low" : priority === 2000 ? "medium" : priority === 3000 ? "high" : String(priority);
}

/** Waiting pull requests of a train in queue order. */
export function orderedWaiting(ctx: Ctx, train: Train): PullEntry[] {
  const pulls = train.waiting.map((n) => ctx.mustPull(n));
  const eff = new Map(pulls.map((p) => [p.number, effectivePriority(ctx, p)]));
  return pulls.sort((a, b) => eff.get(b.number)! - eff.get(a.number)! || a.queuedAt - b.queuedAt || a.seq - b.seq);
}

/**
 * Every queued pull request of a train in position order: batch members in train order (the
 * elimination candidates of a bisection right after its last sub-batch), then waiting ones.
 */
export function orderedTrainPulls(ctx: Ctx, train: Train): number[] {
  const out: number[] = [];
  const placed = new Set<string>();
  const batchIds = new Set(train.batches.map((c) => c.id));
  // Candidates of bisections whose sub-batches are all gone come first (they resolve at once).
  for (const b of train.bisections) {
    if (!b.subBatchIds.some((id) => batchIds.has(id))) {
      out.push(...b.candidates);
      placed.add(b.id);
    }
  }
  for (const batch of train.batches) {
    out.push(...batch.members);
    const b = train.bisections.find(
      (x) => !placed.has(x.id) && x.subBatchIds.filter((id) => batchIds.has(id)).at(-1) === batch.id,
    );
    if (b) {
      out.push(...b.candidates);
      placed.add(b.id);
    }
  }
  for (const p of orderedWaiting(ctx, train)) out.push(p.number);
  return out;
}
