/**
 * Hedged checks behind a bisection (lever `hedge`, docs/benchmarks.md "Levers of issue 26"; serial
 * mode, not with skip_intermediate_results or fast-forward). While the prefixes (sub-batches) of a
 * failed batch are checked on top of the train, each batch behind them that starts a check is
 * checked a second time with those prefixes among its ancestors: one of the two checks is exact
 * whatever the prefixes' verdict. When the prefixes pass they are kept as ordinary batches that
 * merge after the batches they were checked on top of (bisection-end.ts), and {@link adoptKept}
 * moves every batch behind them on top of them: the hedged check replaces the check without them
 * (stopped, MERGE_QUEUE_RESET), or, for a batch without a matching hedged check, its check starts
 * again on top of them. When a prefix fails or is abandoned, the hedged checks on it are cancelled.
 * A hedged check logs nothing and decides nothing until it replaces the batch's check; its verdict
 * is kept until then. Lever `keepPassedPrefixes` alone keeps and adopts without hedging.
 */
import { dropHedge, stopCheck } from "./batches.js";
import { requestHedgeCheck } from "./checks.js";
import type { Ctx } from "./context.js";
import type { EngineEvent } from "./events.js";
import { logChecksStart } from "./log-events.js";
import { onCheckResults } from "./outcomes.js";
import type { Batch, Hedge, Train } from "./state.js";

function hedging(ctx: Ctx): boolean {
  const cfg = ctx.state.config;
  return cfg.levers?.hedge === true && cfg.mode === "serial" && !cfg.skipIntermediateResults;
}

const inTrainOrder = (train: Train, ids: string[]) => train.batches.filter((c) => ids.includes(c.id)).map((c) => c.id);
const names = (train: Train, ids: string[]) =>
  train.batches
    .filter((c) => ids.includes(c.id))
    .map((c) => c.name)
    .join(", ");

/**
 * The live prefixes a hedged check of `batch` would include: the sub-batches of the first bisection
 * with sub-batches ahead of it that are not among its ancestors; none when one of them failed.
 */
function prefixesAhead(train: Train, batch: Batch): Batch[] {
  const ahead = train.batches
    .slice(0, train.batches.indexOf(batch))
    .filter((c) => c.bisectionId !== null && !batch.ancestors.includes(c.id));
  const first = ahead[0]?.bisectionId;
  const subs = ahead.filter((c) => c.bisectionId === first);
  return subs.some((c) => c.check?.phase === "failed") ? [] : subs;
}

/** Starts the hedged checks of the batches behind live prefixes that have none. Returns true on change. */
export function startHedges(ctx: Ctx, train: Train): boolean {
  if (!hedging(ctx) || ctx.state.pause) return false;
  let changed = false;
  const merging = train.batches.find((c) => c.merging);
  for (const batch of train.batches) {
    const check = batch.check;
    if (batch.bisectionId !== null || batch.merging || batch.hedge || !check || check.edited) continue;
    if (check.phase !== "creating" && check.phase !== "running") continue;
    if (ctx.mustRule(batch.queueRule).mergeMethod === "fast-forward") continue;
    const on = prefixesAhead(train, batch);
    if (on.length === 0) continue;
    const ancestors = inTrainOrder(train, [...batch.ancestors, ...on.flatMap((s) => [s.id, ...s.ancestors])]);
    if (merging && !ancestors.includes(merging.id)) continue; // it would be stale at once
    const hedged = requestHedgeCheck(ctx, train, batch, ancestors);
    if (!hedged) continue;
    batch.hedge = { check: hedged, on: on.map((s) => s.id), verdict: null };
    changed = true;
  }
  return changed;
}

/** Cancels hedged checks whose prefixes are no longer live, or whose batch's own check failed. Returns true on change. */
export function sweepHedges(ctx: Ctx, train: Train): boolean {
  let changed = false;
  for (const batch of train.batches) {
    const hedge = batch.hedge;
    if (!hedge) continue;
    const live = hedge.on.every((id) => train.batches.some((c) => c.id === id && c.bisectionId !== null));
    if (live && batch.check && batch.check.phase !== "failed") continue;
    dropHedge(ctx, batch, "prefix resolved");
    changed = true;
  }
  return changed;
}

/** The hedged check becomes the batch's check: the check without the prefixes stops, its verdict (if any) applies. */
function swap(ctx: Ctx, train: Train, batch: Batch, hedge: Hedge, kept: string[]): void {
  batch.hedge = null;
  const reason = `Its check on top of ${names(train, kept)}, which passed their bisection check, goes on`;
  stopCheck(ctx, batch, () => ({ code: "MERGE_QUEUE_RESET", reason }));
  const check = hedge.check;
  batch.check = check;
  if (check.phase === "running") {
    const label = ctx.state.config.checkingLabel;
    for (const m of batch.members) {
      const pull = ctx.mustPull(m);
      logChecksStart(ctx, pull, batch, check, `Checked on top of ${names(train, kept)} (hedged check)`);
      if (label) ctx.emit({ kind: "add_labels", number: m, labels: [label] });
    }
  }
  const v = hedge.verdict;
  if (v) onCheckResults(ctx, check.id, v.conditions, v.checks, v.evaluations);
}

/**
 * Moves the batches behind prefixes just kept (train.kept) on top of them: their hedged check
 * replaces their check when it has exactly those prefixes, otherwise their check starts again.
 * Returns true on change.
 */
export function adoptKept(ctx: Ctx, train: Train): boolean {
  const groups = train.kept ?? [];
  if (groups.length === 0) return false;
  train.kept = [];
  for (const group of groups) {
    const ids = inTrainOrder(train, group);
    if (ids.length === 0) continue;
    const first = train.batches.findIndex((c) => c.id === ids[0]);
    for (const batch of train.batches.slice(first + 1)) {
      if (ids.includes(batch.id) || batch.merging || ids.every((id) => batch.ancestors.includes(id))) continue;
      if (batch.bisectionId !== null) continue; // another bisection's prefix: diagnostic, rechecked if stale when these merge
      const hedge = batch.hedge;
      batch.ancestors = inTrainOrder(train, [...batch.ancestors, ...ids]);
      const check = batch.check;
      if (!check || check.phase === "failed") {
        dropHedge(ctx, batch, "prefix resolved");
        continue;
      }
      if (hedge && hedge.on.length === ids.length && hedge.on.every((id) => ids.includes(id))) {
        swap(ctx, train, batch, hedge, ids);
        continue;
      }
      const reason = `Rechecked on top of ${names(train, ids)}, which passed their bisection check`;
      stopCheck(ctx, batch, () => ({ code: "MERGE_QUEUE_RESET", reason }));
      batch.restartReason = reason;
    }
  }
  return true;
}

/** Handles a runner report about a hedged check; false when `event` is not about one. */
export function onHedgeEvent(ctx: Ctx, event: EngineEvent): boolean {
  if (!("checkId" in event)) return false;
  let batch: Batch | undefined;
  for (const train of ctx.state.trains) batch ??= train.batches.find((c) => c.hedge?.check.id === event.checkId);
  const hedge = batch?.hedge;
  if (!batch || !hedge) return false;
  const check = hedge.check;
  if (event.type === "speculative_check_created") {
    if (check.phase === "creating")
      Object.assign(check, {
        number: event.pullRequestNumber,
        headSha: event.headSha,
        phase: "running",
        startedAt: ctx.now,
      });
    return true;
  }
  if (event.type !== "check_results") {
    dropHedge(ctx, batch, "hedged check failed"); // creation failed, closed or edited: the batch's own check goes on
    return true;
  }
  if (check.phase !== "running" || hedge.verdict) return true;
  check.checks = event.checks;
  if (event.scheduleOpensAt != null) dropHedge(ctx, batch, "waits for a schedule");
  else if (event.conditions !== "pending") {
    hedge.verdict = { conditions: event.conditions, checks: event.checks, evaluations: event.evaluations ?? {} };
    check.ciEndedAt = ctx.now;
  }
  return true;
}
