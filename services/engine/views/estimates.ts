/**
 * Time estimates of the read views (docs/merge-queue.md "Estimates"). The typical CI duration is
 * the median of the recent concluded checks kept in the state (none known: no estimate, null).
 * A running check finishes at its start plus that duration (a check not started yet: now plus
 * it; a check already running longer than that: no estimate); a batch merges when it and every
 * batch it is checked on top of have finished; while the queue is paused nothing has a merge
 * estimate (it merges nothing until unpaused, at a time nobody knows); a waiting
 * pull request at index i merges after the batches in the train and `floor(i / (batch size x
 * max_parallel_checks)) + 1` more rounds. Times are epoch milliseconds UTC.
 */
import type { Ctx } from "../context.js";
import { orderedWaiting } from "../order.js";
import { typicalCiMs } from "../outcomes.js";
import type { Batch, Train } from "../state.js";

/** Estimated end of a batch's CI (its actual end when concluded). */
export function ciFinishAt(ctx: Ctx, batch: Batch): number | null {
  const check = batch.check;
  if (check?.endedAt !== null && check?.endedAt !== undefined) return check.endedAt;
  if ((check?.scheduleHeldSince ?? null) !== null) return check!.scheduleHeldSince!; // CI done, a schedule is closed
  const typical = typicalCiMs(ctx);
  if (typical === null) return null;
  const end = (check?.startedAt ?? ctx.now) + typical;
  // A check running longer than the typical duration: nobody knows when it ends.
  return end < ctx.now ? null : end;
}

/** Estimated merge times: per batch id, and per waiting pull request number. */
export function mergeEstimates(
  ctx: Ctx,
  train: Train,
): { batches: Map<string, number | null>; waiting: Map<number, number | null> } {
  const batches = new Map<string, number | null>();
  // While the queue is paused nothing merges, and nobody knows when it resumes.
  if (ctx.state.pause) {
    for (const batch of train.batches) batches.set(batch.id, null);
    return { batches, waiting: new Map(orderedWaiting(ctx, train).map((p) => [p.number, null])) };
  }
  for (const batch of train.batches) {
    const ci = ciFinishAt(ctx, batch);
    // A check waiting for a schedule merges when it opens at the earliest; under an open-ended
    // freeze nobody knows when.
    const own =
      ci === null || batch.check?.scheduleHeldOpenEnded ? null : Math.max(ci, batch.check?.scheduleHeldUntil ?? ci);
    // Ancestors no longer in the train (merged, or left) hold nothing back.
    const ahead = batch.ancestors.filter((id) => batches.has(id)).map((id) => batches.get(id));
    batches.set(batch.id, own === null || ahead.some((a) => a === null) ? null : Math.max(own, ...(ahead as number[])));
  }
  const waiting = new Map<number, number | null>();
  const typical = typicalCiMs(ctx);
  const known = [...batches.values()];
  const last = known.some((v) => v === null) ? null : Math.max(ctx.now, ...(known as number[]));
  orderedWaiting(ctx, train).forEach((pull, i) => {
    const rule = ctx.rule(pull.queueRule);
    if (typical === null || last === null || !rule) {
      waiting.set(pull.number, null);
      return;
    }
    const perRound = rule.batchSize.max * ctx.state.config.maxParallelChecks;
    const startsAt = train.forming?.members.includes(pull.number) ? Math.max(ctx.now, train.forming.startsAt) : ctx.now;
    // A pull request that gave way to its closed merge schedule starts when the schedule opens.
    const earliest = Math.max(startsAt, pull.scheduleYieldUntil ?? 0);
    waiting.set(pull.number, Math.max(last, earliest + (Math.floor(i / perRound) + 1) * typical));
  });
  return { batches, waiting };
}
