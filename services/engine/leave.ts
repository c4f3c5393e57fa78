/**
 * A pull request leaving the queue (docs/domain.md §3.6): batches from its position on are
 * cancelled and their other pull requests re-embarked (PR_AHEAD_DEQUEUED), the leave is logged
 * with its dequeue code, labels / summary check / comment follow merge_queue settings, and pull
 * requests stacked on it (`Depends-On`) leave too (STACK_PREDECESSOR_DEQUEUED). A merge uses
 * {@link announceLeave} only: nothing to cancel, no cascade.
 */
import { abandonBisections } from "./bisection-end.js";
import { batchesInMerge, cancelBatches, withDescendants } from "./batches.js";
import { reasonOf } from "./codes.js";
import type { AbortCode, DefinitiveCode } from "../config/index.js";
import type { Ctx } from "./context.js";
import { INTERNAL_TRIGGER } from "./effects.js";
import { logLeave, logQueueChange, type Leave, type LeaveBatch } from "./log-events.js";
import type { PullEntry } from "./state.js";
import { endYield } from "./yield-wait.js";

/** Options of a leave. */
export interface LeaveOptions {
  trigger?: string;
  /** Sentence replacing the code's default reason. */
  reason?: string;
  /** Code for the checks_end of the other pull requests of cancelled batches. */
  othersCode?: AbortCode;
  /** Stacked successors leave too (default true; false for a re-queue). */
  cascade?: boolean;
  /**
   * The batch each pull request was in when its exit was decided, for those no longer in one by
   * now (a concluded batch already discarded, a train dissolved): the leave event names it.
   */
  from?: ReadonlyMap<number, LeaveBatch>;
}

/**
 * Makes queued pull requests leave with a definitive code, from every train (batch-mates in the
 * same cancelled batch get the same code on their checks_end). Unknown numbers are ignored
 * (already gone), and so are pull requests whose batch is being merged (the merge result
 * decides). The leave event names the batch it was in: its batch in a train, else the bisected
 * batch holding it as a candidate, else `options.from`; null when it was waiting. Returns the
 * numbers that left, cascaded successors included.
 */
export function leaveQueue(
  ctx: Ctx,
  numbers: number | number[],
  code: DefinitiveCode,
  options: LeaveOptions = {},
): number[] {
  // A pull request whose batch is being merged (or merged with a later batch) cannot leave any
  // more: the merge decides.
  const merging = new Set(ctx.state.trains.flatMap((t) => batchesInMerge(t).flatMap((c) => c.members)));
  const list = (Array.isArray(numbers) ? numbers : [numbers]).filter(
    (n, i, a) => ctx.pull(n) && !merging.has(n) && a.indexOf(n) === i,
  );
  if (list.length === 0) return [];
  const leaving = new Map(list.map((n) => [n, code] as const));
  const batchOf = new Map<number, LeaveBatch>();
  for (const number of list) {
    for (const train of ctx.trainsOf(number)) {
      train.waiting = train.waiting.filter((n) => n !== number);
      for (const b of train.bisections) {
        if (!b.candidates.includes(number)) continue;
        if (!batchOf.has(number)) batchOf.set(number, { id: b.id, scopes: b.scopes, allScopes: b.allScopes });
        b.candidates = b.candidates.filter((n) => n !== number);
      }
      const batch = train.batches.find((c) => c.members.includes(number));
      if (!batch) continue;
      const cancelled = withDescendants(train, batch);
      for (const c of cancelled)
        for (const m of c.members) if (leaving.has(m) && !batchOf.has(m)) batchOf.set(m, { ...c });
      const abandoned = cancelBatches(ctx, train, cancelled, options.othersCode ?? "PR_AHEAD_DEQUEUED", {
        leaving,
      });
      abandonBisections(ctx, train, abandoned);
      for (const m of list) train.waiting = train.waiting.filter((n) => n !== m);
    }
  }
  const left = [...list];
  for (const number of list) {
    announceLeave(ctx, ctx.mustPull(number), {
      code,
      batch: batchOf.get(number) ?? options.from?.get(number) ?? null,
      trigger: options.trigger ?? INTERNAL_TRIGGER,
      reason: options.reason,
    });
  }
  for (const number of options.cascade === false ? [] : list) {
    for (const successor of Object.values(ctx.state.pulls)) {
      if (successor.dependsOn.includes(number)) {
        left.push(...leaveQueue(ctx, successor.number, "STACK_PREDECESSOR_DEQUEUED", { trigger: INTERNAL_TRIGGER }));
      }
    }
  }
  return left;
}

/**
 * Logs the leave and its side effects (`leave.batch`: the batch it left from, null when it was
 * waiting), then forgets the pull request. Held pull requests whose conflict was deferred behind it
 * are released when nothing else blocks them.
 */
export function announceLeave(ctx: Ctx, pull: PullEntry, leave: Leave): void {
  const { code, trigger, reason } = leave;
  const merged = code === "PR_MERGED" || code === "PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED";
  const cfg = ctx.state.config;
  endYield(pull, ctx.now);
  logLeave(ctx, pull, leave);
  if (cfg.queuedLabel) ctx.emit({ kind: "remove_labels", number: pull.number, labels: [cfg.queuedLabel] });
  if (!merged && cfg.dequeuedLabel) ctx.emit({ kind: "add_labels", number: pull.number, labels: [cfg.dequeuedLabel] });
  const sentence = reason ?? reasonOf(code);
  ctx.emit({
    kind: "post_summary_check",
    number: pull.number,
    headSha: pull.headSha,
    conclusion: merged ? "success" : "failure",
    title: merged
      ? "The pull request has been merged by the merge queue"
      : `The pull request left the merge queue: ${code}`,
    summary: sentence,
  });
  if (cfg.statusComments !== "none") {
    ctx.emit({
      kind: "comment",
      number: pull.number,
      body: merged
        ? `Merged by the merge queue (${pull.queueRule}).`
        : `Dequeued from the merge queue (${code}): ${sentence}.`,
    });
  }
  delete ctx.state.pulls[String(pull.number)];
  logQueueChange(ctx, pull, trigger);
  for (const other of Object.values(ctx.state.pulls)) {
    if (other.conflictBlockers?.includes(pull.number)) {
      const rest = other.conflictBlockers.filter((n) => n !== pull.number && ctx.pull(n));
      other.conflictBlockers = rest.length ? rest : null;
    }
  }
}
