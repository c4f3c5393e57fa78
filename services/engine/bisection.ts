/**
 * Failure resolution (docs/domain.md §3.5). The batches checked on top of a failed batch are
 * rechecked without it at once (BATCH_AHEAD_FAILED; {@link rebuildDescendants}). When every batch
 * the failed one is checked on top of has passed, it is resolved:
 * - a batch of one pull request names its culprit: CHECKS_FAILED (CHECKS_TIMEOUT after a timeout);
 * - with batch_max_failure_resolution_attempts 0 the whole batch leaves;
 * - otherwise it is bisected: its members but the last are cut into `max(2, max_parallel_checks)`
 *   chunks checked as cumulative prefixes (sub-batch i includes chunks 1..i) on top of the failed
 *   batch's own ancestors (never the batches behind it, so a failure behind it does not restart
 *   the bisection); the last member is held as the elimination candidate. Sub-batches are
 *   diagnostic leaves: nothing is checked on top of them and they take no checks slot, so a
 *   bisection never holds up or endangers the rest of the train. The first failing sub-batch
 *   holds the culprit: a single member is a confirmed culprit, more are bisected again (one more
 *   attempt); later sub-batches and the candidate are re-embarked. When every sub-batch passes,
 *   the candidate is the culprit: DROPPED_BY_BISECTION_ELIMINATION when the only failure naming it
 *   is the batch's first check (which may have been a flake), CHECKS_FAILED when a bisection check
 *   names it.
 * - Pull requests proven good by a passed sub-batch merge from it when that is still exact and
 *   stops no other check (no other batch of the train holds a check); otherwise they are
 *   re-embarked and checked again with the train.
 * - Suspect-first: when the failed batch of three members or more has failing tests pointing to
 *   one member (its check's `suspect`, test-facts.ts), that member alone and the rest together are
 *   checked side by side on top of the batch's ancestors instead (a batch of two is halved: one
 *   run). The suspect failing is a confirmed culprit; the rest failing is bisected again as usual (a wrong suspect), once the suspect's check concluded; both
 *   passing make the suspect the elimination candidate (together they failed).
 * Each split is one resolution attempt; past the limit, every pull request of the original batch
 * not yet proven good leaves with BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS.
 */
import { endChain, inTree, reembarkCandidates, rootOf, settleSubs } from "./bisection-end.js";
import { addBatch, ancestorsFor, cancelBatches, descendantsOf, releaseCheckingLabel, stopCheck } from "./batches.js";
import type { AbortCode } from "../config/index.js";
import type { Ctx } from "./context.js";
import { leaveQueue } from "./leave.js";
import { logBisectionStart, type LeaveBatch } from "./log-events.js";
import type { Bisection, Batch, Train } from "./state.js";

/** Closes a concluded batch's draft and removes the batch; its members are the caller's business. */
export function discardBatch(ctx: Ctx, train: Train, batch: Batch, reason: string): void {
  const check = batch.check;
  if (check) {
    releaseCheckingLabel(ctx, batch);
    ctx.emit({
      kind: "cancel_speculative_check",
      checkId: check.id,
      batchId: batch.id,
      inPlace: check.mode === "in_place",
      draftBranch: check.branch,
      draftNumber: check.mode === "draft" ? check.number : null,
      reason,
    });
  }
  train.batches = train.batches.filter((c) => c.id !== batch.id);
}

/**
 * The batches checked on top of a failed batch are rechecked without it (Zuul's "nearest
 * non-failing" reparenting, applied to batches): their checks stop (BATCH_AHEAD_FAILED) and start
 * again on top of the remaining batches, keeping their pull requests together. Later sub-batches of
 * the failed batch's own bisection are re-embarked instead (the culprit is in the failed one) -
 * once it is judged (`judged`): before, it may yet be restarted because a batch it is checked on top
 * of failed, and they are left alone (re-embarking them would let the bisection conclude without them
 * and drop its elimination candidate unproven). `why` replaces the failure's code and reasons when
 * the batch leaves the train for another cause (a batch giving way to a schedule:
 * SCHEDULE_BLOCKED_AHEAD_YIELDED).
 */
export function rebuildDescendants(
  ctx: Ctx,
  train: Train,
  batch: Batch,
  why?: { code: AbortCode; reason: string; restartReason: string },
  judged = true,
): void {
  const sameBisection = sameTreeDescendants(ctx, train, batch);
  const gone = new Set([batch.id, ...sameBisection.map((d) => d.id)]);
  if (judged) cancelBatches(ctx, train, sameBisection, "BATCH_AHEAD_FAILED");
  for (const d of descendantsOf(train, batch)) {
    if (gone.has(d.id) || d.merging) continue;
    stopCheck(ctx, d, () => (why ? { code: why.code, reason: why.reason } : { code: "BATCH_AHEAD_FAILED" }));
    d.ancestors = d.ancestors.filter((a) => !gone.has(a));
    d.restartReason = why?.restartReason ?? `Rechecked without ${batch.name}, which failed`;
  }
}

/** The batches checked on top of `batch` that belong to its own bisection tree (later prefixes). */
export function sameTreeDescendants(ctx: Ctx, train: Train, batch: Batch): Batch[] {
  const own = ctx.bisection(train, batch.bisectionId);
  const ownRoot = own ? rootOf(train, own).id : null;
  return descendantsOf(train, batch).filter((d) => ownRoot !== null && inTree(train, d, ownRoot));
}

function canSplit(ctx: Ctx, batch: Batch, root: Bisection | null): boolean {
  const max = ctx.rule(batch.queueRule)?.batchMaxFailureResolutionAttempts ?? null;
  return max === null || (root?.attempts ?? 0) < max;
}

/**
 * Replaces a failed batch by diagnostic sub-batches: cumulative prefixes of its members but the
 * last (halving), or, when its failing tests point to one member (`check.suspect`), that member
 * alone and the rest together, both on top of the failed batch's ancestors (suspect-first).
 */
function split(ctx: Ctx, train: Train, batch: Batch, parent: Bisection | null): void {
  const suspect = batch.check?.suspect ?? null;
  // Only for three members or more: a batch of two is resolved by one run when halving (its first
  // member alone; the last is the elimination candidate), where suspect-first spends two.
  const suspectFirst = suspect !== null && batch.members.length >= 3 && batch.members.includes(suspect.number);
  const head = batch.members.slice(0, -1);
  const parts = Math.min(Math.max(2, ctx.state.config.maxParallelChecks), head.length);
  const size = Math.ceil(head.length / parts);
  const record: Bisection = {
    id: batch.id,
    name: batch.name,
    queueRule: batch.queueRule,
    rootId: parent?.rootId ?? batch.id,
    parentId: parent?.id ?? null,
    depth: batch.depth,
    members: [...batch.members],
    ancestors: [],
    scopes: batch.scopes,
    allScopes: batch.allScopes,
    subBatchIds: [],
    candidates: suspectFirst ? [] : [batch.members.at(-1)!],
    split: suspectFirst
      ? { strategy: "suspect_first", suspect: suspect.number, reason: suspect.reason }
      : { strategy: "halving", suspect: null, reason: null },
    checkPullRequest: batch.check?.number ?? null,
    timedOut: batch.check?.timedOut ?? false,
    attempts: 0,
    startedAt: ctx.now,
    confirmedCulprits: [],
    droppedUnverified: [],
    failedChecks: (batch.check?.checks ?? []).map((c) => ({ ...c })),
    memberRefs: batch.members.map((n) => {
      const p = ctx.mustPull(n);
      return {
        number: n,
        baseRef: p.baseRef,
        queueRule: p.queueRule,
        priorityRuleName: p.priorityRuleName,
        sessionId: p.sessionId,
      };
    }),
  };
  const root = parent ? rootOf(train, parent) : record;
  root.attempts += 1;
  discardBatch(ctx, train, batch, "bisection");
  // On the failed batch's own ancestors, not on the batches behind it (rebuilt without it): a
  // failure behind it never restarts its bisection.
  const usable = new Set(ancestorsFor(ctx, train, batch));
  record.ancestors = batch.ancestors.filter((id) => usable.has(id));
  const prefix = batch.name.replace(/^Batch /, "Sub-batch ");
  // Suspect-first: the suspect alone and the rest together, side by side (neither on the other).
  const chunks = suspectFirst
    ? [[suspect.number], batch.members.filter((n) => n !== suspect.number)]
    : Array.from({ length: Math.ceil(head.length / size) }, (_, k) => head.slice(k * size, (k + 1) * size));
  chunks.forEach((members, k) => {
    const sub = addBatch(ctx, train, {
      queueRule: batch.queueRule,
      members,
      ancestors: suspectFirst ? [...record.ancestors] : [...record.ancestors, ...record.subBatchIds],
      scopes: batch.scopes,
      allScopes: batch.allScopes,
      bisectionId: record.id,
      depth: batch.depth + 1,
      name: `${prefix}.${k + 1}`,
    });
    record.subBatchIds.push(sub.id);
  });
  train.bisections.push(record);
  for (const ref of record.memberRefs) logBisectionStart(ctx, ref, record);
}

/**
 * Every pull request of the original batch still queued and not in a passed batch leaves. Its
 * leave names the failed sub-batch it was in, else the original batch (the bisection's root),
 * unless it is in another batch of the train by now.
 */
function giveUp(ctx: Ctx, train: Train, root: Bisection, leaf: Bisection, failed: Batch): void {
  const passed = new Set(
    train.batches.filter((c) => c.check?.phase === "passed" && !inTree(train, c, root.id)).flatMap((c) => c.members),
  );
  const unresolved = root.members.filter((n) => ctx.pull(n) && !passed.has(n));
  const from = new Map<number, LeaveBatch>(unresolved.map((n) => [n, failed.members.includes(n) ? failed : root]));
  endChain(ctx, train, leaf, true);
  for (const n of unresolved) leaveQueue(ctx, n, "BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS", { from });
}

/**
 * Resolves a failed batch whose ancestors all passed (or merged); see the module header.
 * The batch's check has concluded (its checks_end was logged).
 */
export function resolveFailedBatch(ctx: Ctx, train: Train, batch: Batch): void {
  const parent = ctx.bisection(train, batch.bisectionId) ?? null;
  const root = parent ? rootOf(train, parent) : null;
  const timedOut = batch.check?.timedOut ?? false;
  rebuildDescendants(ctx, train, batch);
  if (parent) {
    reembarkCandidates(train, parent);
    batch.bisectionId = null; // resolved here, not settled with the passed sub-batches before it
    settleSubs(ctx, train, root!.id, true);
    batch.bisectionId = parent.id;
  }
  const culpritCode = timedOut ? "CHECKS_TIMEOUT" : "CHECKS_FAILED";
  if (batch.members.length === 1) {
    const culprit = batch.members[0]!;
    discardBatch(ctx, train, batch, "culprit found");
    if (parent) {
      parent.confirmedCulprits.push(culprit);
      endChain(ctx, train, parent, false);
    }
    // The batch is gone by now: the leave names it explicitly.
    leaveQueue(ctx, culprit, culpritCode, { from: new Map([[culprit, batch]]) });
    return;
  }
  if (!canSplit(ctx, batch, root)) {
    if (parent) {
      discardBatch(ctx, train, batch, "max failure resolution attempts");
      giveUp(ctx, train, root!, parent, batch);
      return;
    }
    const members = [...batch.members];
    discardBatch(ctx, train, batch, "max failure resolution attempts");
    const from = new Map(members.map((n) => [n, batch]));
    for (const n of members) leaveQueue(ctx, n, "BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS", { from });
    return;
  }
  split(ctx, train, batch, parent);
}

/**
 * Concludes bisections whose sub-batches all passed: the held candidate is the culprit; the
 * sub-batches' pull requests merge from them or are re-embarked. Returns true when something changed.
 */
export function progressBisections(ctx: Ctx, train: Train): boolean {
  for (const b of [...train.bisections].sort((x, y) => y.depth - x.depth)) {
    if (train.bisections.some((x) => x.parentId === b.id)) continue;
    const live = train.batches.filter((c) => c.bisectionId === b.id);
    if (!live.every((c) => c.check?.phase === "passed")) continue;
    // Suspect-first: each side passed alone, together they failed; the suspect is the candidate.
    const suspect = b.split?.strategy === "suspect_first" ? b.split.suspect : null;
    const alone = live.find((c) => c.members.length === 1 && c.members[0] === suspect);
    if (alone) {
      discardBatch(ctx, train, alone, "suspect eliminated");
      b.candidates.push(suspect!);
    }
    const candidates = b.candidates.filter((n) => ctx.pull(n));
    b.candidates = [];
    if (candidates.length > 0) {
      if (b.depth === 0) b.droppedUnverified.push(...candidates);
      else b.confirmedCulprits.push(...candidates);
    }
    settleSubs(ctx, train, b.rootId, true);
    endChain(ctx, train, b, false);
    const code = b.depth === 0 ? "DROPPED_BY_BISECTION_ELIMINATION" : b.timedOut ? "CHECKS_TIMEOUT" : "CHECKS_FAILED";
    // The candidates were held by the bisected batch (same id as the bisection): their leave names it.
    leaveQueue(ctx, candidates, code, { from: new Map(candidates.map((n) => [n, b])) });
    return true;
  }
  return false;
}
