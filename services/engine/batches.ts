/**
 * The batches of a train: creating one on top of the batches it depends on, and cancelling
 * batches (their check stops, their pull requests go back to waiting or leave). A batch's check
 * includes the pull requests of all its ancestors: in serial mode every batch ahead (cumulative
 * speculation, docs/domain.md §3.4), in parallel mode the batches ahead that share a scope
 * (and theirs), in isolated mode none (§3.3).
 */
import type { AbortCode } from "../config/index.js";
import type { Ctx } from "./context.js";
import { logChecksEnd, type MemberCheckEnd } from "./log-events.js";
import type { Batch, Train } from "./state.js";

/** Whether two scope sets share a scope (a batch touching every scope shares with all). */
export function scopesOverlap(
  a: { scopes: string[]; allScopes: boolean },
  b: { scopes: string[]; allScopes: boolean },
): boolean {
  if (a.allScopes || b.allScopes) return true;
  const sa = laneScopes(a.scopes);
  const sb = laneScopes(b.scopes);
  return sa.some((s) => sb.includes(s));
}

/** Scopes of a lane: unscoped work forms the `__default__` lane (docs/domain.md §4.3 scope_queues). */
export function laneScopes(scopes: string[]): string[] {
  return scopes.length === 0 ? [DEFAULT_SCOPE] : scopes;
}

/** Lane of unscoped work in `scope_queues`. */
export const DEFAULT_SCOPE = "__default__";

/**
 * Ancestors a new batch with these scopes gets in this train, in train order. Failed batches are
 * never built upon (batches behind them are rebuilt without them), nor bisection sub-batches
 * (diagnostic leaves).
 */
export function ancestorsFor(ctx: Ctx, train: Train, scopes: { scopes: string[]; allScopes: boolean }): string[] {
  const mode = ctx.state.config.mode;
  if (mode === "isolated") return [];
  const usable = train.batches.filter((c) => c.check?.phase !== "failed" && c.bisectionId === null);
  if (mode === "serial") return usable.map((c) => c.id);
  const picked = new Set<string>();
  for (const batch of usable) {
    if (scopesOverlap(batch, scopes)) {
      picked.add(batch.id);
      batch.ancestors.forEach((a) => picked.add(a));
    }
  }
  return usable.filter((c) => picked.has(c.id)).map((c) => c.id);
}

/** Batches checked on top of `batch` (having it among their ancestors). */
export function descendantsOf(train: Train, batch: Batch): Batch[] {
  return train.batches.filter((c) => c.ancestors.includes(batch.id));
}

/** Pull requests of a batch's check, in merge order: its ancestors' members, then its own. */
export function checkedPulls(train: Train, batch: Batch): number[] {
  const ahead = train.batches.filter((c) => batch.ancestors.includes(c.id)).flatMap((c) => c.members);
  return [...ahead, ...batch.members];
}

/** Appends a new batch to a train. */
export function addBatch(
  ctx: Ctx,
  train: Train,
  init: Omit<Batch, "id" | "name" | "createdAt" | "check" | "retries" | "merging" | "restartReason"> & {
    name?: string;
  },
  index?: number,
): Batch {
  const name = init.name ?? `Batch ${ctx.nextBatchNumber()}`;
  const { id } = ctx.nextBatch();
  const batch: Batch = {
    ...init,
    id,
    name,
    createdAt: ctx.now,
    check: null,
    retries: 0,
    merging: false,
    restartReason: null,
  };
  if (index === undefined) train.batches.push(batch);
  else train.batches.splice(index, 0, batch);
  return batch;
}

/**
 * checks_end of one member for a check attempt that started, which makes the batch the one the
 * member was checked in just before its next check (checks_start `previous_batch_*`).
 */
export function endCheckFor(ctx: Ctx, ending: MemberCheckEnd): void {
  logChecksEnd(ctx, ending);
  const { pull, batch, end } = ending;
  const ended = end.aborted
    ? "stopped"
    : end.conclusion === "success"
      ? "passed"
      : end.conclusion === "timed_out"
        ? "timed_out"
        : "failed";
  pull.previousBatch = { id: batch.id, name: batch.name, ended };
}

/** Stops a batch's check attempt: checks_end per member when it had started, then the cancel effect. */
export function stopCheck(ctx: Ctx, batch: Batch, endFor: (pr: number) => { code: AbortCode; reason?: string }): void {
  const check = batch.check;
  if (!check) return;
  const rule = ctx.rule(batch.queueRule);
  if (check.phase === "running") {
    check.endedAt = ctx.now;
    for (const m of batch.members) {
      const pull = ctx.pull(m);
      if (pull)
        endCheckFor(ctx, {
          pull,
          batch,
          check,
          end: { aborted: true, ...endFor(m) },
          maxRetries: rule?.maxChecksRetries ?? 0,
        });
    }
  }
  ctx.emit({
    kind: "cancel_speculative_check",
    checkId: check.id,
    batchId: batch.id,
    inPlace: check.mode === "in_place",
    draftBranch: check.branch,
    draftNumber: check.mode === "draft" ? check.number : null,
    reason: endFor(batch.members[0]!).code,
  });
  releaseCheckingLabel(ctx, batch);
  batch.check = null;
}

/** Removes the checking label of a batch's members (merge_queue.checking_label). */
export function releaseCheckingLabel(ctx: Ctx, batch: Batch): void {
  const label = ctx.state.config.checkingLabel;
  if (!label || !batch.check || batch.check.phase === "creating") return;
  for (const m of batch.members) if (ctx.pull(m)) ctx.emit({ kind: "remove_labels", number: m, labels: [label] });
}

/**
 * Cancels batches (in train order): their checks stop with `code` and `options.reason` (default:
 * the code's sentence), or the code of `options.leaving` for a pull request that leaves; their
 * other members return to waiting keeping their readiness, and the ids of bisections that lost a
 * sub-batch are returned (to abandon). A batch being merged is never cancelled: its merge is in
 * flight.
 */
export function cancelBatches(
  ctx: Ctx,
  train: Train,
  batches: Batch[],
  code: AbortCode,
  options: { leaving?: ReadonlyMap<number, AbortCode>; reason?: string } = {},
): string[] {
  const { leaving = new Map<number, AbortCode>(), reason } = options;
  const abandoned = new Set<string>();
  const inMerge = new Set(batchesInMerge(train).map((c) => c.id));
  const ids = new Set(batches.filter((c) => !inMerge.has(c.id)).map((c) => c.id));
  for (const batch of train.batches.filter((c) => ids.has(c.id))) {
    stopCheck(ctx, batch, (pr) => (leaving.has(pr) ? { code: leaving.get(pr)! } : { code, reason }));
    for (const m of batch.members) {
      const pull = ctx.pull(m);
      if (!pull) continue;
      if (!leaving.has(m) && !train.waiting.includes(m)) train.waiting.push(m);
    }
    if (batch.bisectionId) abandoned.add(batch.bisectionId);
  }
  train.batches = train.batches.filter((c) => !ids.has(c.id));
  return [...abandoned];
}

/**
 * Batches whose pull requests an in-flight merge takes: the merging batch and, with
 * skip_intermediate_results, the unmerged batches it was checked on top of (merged with it).
 * None of them may be cancelled, and none of their pull requests may leave, until the merge
 * result arrives.
 */
export function batchesInMerge(train: Train): Batch[] {
  const ids = new Set(train.batches.filter((c) => c.merging).flatMap((c) => [c.id, ...c.ancestors]));
  return train.batches.filter((c) => ids.has(c.id));
}

/**
 * Whether `batch`'s check must contain the pull requests of `other` (a batch ahead of it or merging
 * before it): always in serial mode, when their scopes overlap in parallel mode, never in isolated
 * mode (docs/domain.md §3.3).
 */
export function mustBuildOn(ctx: Ctx, batch: Batch, other: Batch): boolean {
  const mode = ctx.state.config.mode;
  if (mode === "isolated") return false;
  return mode === "serial" || scopesOverlap(batch, other);
}

/** A batch and every batch checked on top of it, in train order. */
export function withDescendants(train: Train, batch: Batch): Batch[] {
  const d = new Set(descendantsOf(train, batch).map((c) => c.id));
  return train.batches.filter((c) => c.id === batch.id || d.has(c.id));
}
