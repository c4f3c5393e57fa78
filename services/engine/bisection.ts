/**
 * Failure resolution (research/domain.md §3.5). The batches checked on top of a failed batch are
 * rechecked without it at once (BATCH_AHEAD_FAILED; {@link rebuildDescendants}). When every batch
 * the failed one is checked on top of has passed, it is resolved:
 * - a batch of one pull request names its culprit: CHECKS_FAILED (CHECKS_TIMEOUT after a timeout);
 * - with batch_max_failure_resolution_attempts 0 the whole batch leaves;
 * - otherwise it is bisected: its members but the last are cut into as many chunks as free checks
 *   slots allow (at least 2; `max(2, max_parallel_checks)` on an idle train) checked as
 *   cumulative prefixes (sub-batch i includes chunks 1..i), the last member is
 *   held as the elimination candidate; the sub-batches go behind the batches already in the train,
 *   so those never wait for the bisection. The first failing sub-batch holds the culprit: a single
 *   member is a confirmed culprit, more are bisected again (one more attempt); later sub-batches
 *   and the candidate are re-embarked. When every sub-batch passes, the candidate is the culprit:
 *   DROPPED_BY_BISECTION_ELIMINATION when the only failure that names it is the batch's first
 *   check (which may have been a flake), CHECKS_FAILED when a bisection check names it.
 * Each split is one resolution attempt; past the limit, every pull request of the original batch
 * not yet proven good leaves with BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS.
 */
import { addCar, ancestorsFor, cancelCars, descendantsOf, releaseCheckingLabel, stopCheck } from "./cars.js";
import type { Ctx } from "./context.js";
import { leaveQueue } from "./leave.js";
import { logBisectionEnd, logBisectionStart } from "./log-events.js";
import type { Bisection, Car, Train } from "./state.js";

const rootOf = (train: Train, b: Bisection): Bisection => train.bisections.find((x) => x.id === b.rootId) ?? b;

/** Closes a concluded batch's draft and removes the batch; its members are the caller's business. */
export function discardCar(ctx: Ctx, train: Train, car: Car, reason: string): void {
  const check = car.check;
  if (check) {
    releaseCheckingLabel(ctx, car);
    ctx.emit({ kind: "cancel_speculative_check", checkId: check.id, batchId: car.id, inPlace: check.mode === "in_place", draftBranch: check.branch, draftNumber: check.mode === "draft" ? check.number : null, reason });
  }
  train.cars = train.cars.filter((c) => c.id !== car.id);
}

/** Moves held candidates back to waiting. */
function reembarkCandidates(train: Train, b: Bisection): void {
  for (const n of b.candidates) if (!train.waiting.includes(n)) train.waiting.push(n);
  b.candidates = [];
}

/** Ends a bisection and every enclosing one (innermost first), logging batch_bisection_end per member. */
function endChain(ctx: Ctx, train: Train, b: Bisection, maxReached: boolean): void {
  const culprits = new Set([...b.confirmedCulprits, ...b.droppedUnverified]);
  for (let level: Bisection | undefined = b; level; level = ctx.bisection(train, level.parentId)) {
    if (level !== b) {
      level.confirmedCulprits.push(...b.confirmedCulprits.filter((n) => !level!.confirmedCulprits.includes(n)));
      level.droppedUnverified.push(...b.droppedUnverified.filter((n) => !level!.droppedUnverified.includes(n)));
    }
    const remaining = level.members.filter((n) => ctx.pull(n) && !culprits.has(n));
    for (const ref of level.memberRefs) logBisectionEnd(ctx, ref, level, remaining, maxReached);
    reembarkCandidates(train, level);
    for (const car of train.cars) if (car.bisectionId === level.id) car.bisectionId = null;
    train.bisections = train.bisections.filter((x) => x.id !== level!.id);
  }
}

/** Abandons the bisections (whole trees) holding these ids: ends them without verdict, re-embarks candidates. */
export function abandonBisections(ctx: Ctx, train: Train, ids: string[]): void {
  for (const id of ids) {
    const b = train.bisections.find((x) => x.id === id);
    if (!b) continue;
    const root = rootOf(train, b);
    const tree = train.bisections.filter((x) => x.rootId === root.id).sort((x, y) => y.depth - x.depth);
    const deepest = tree[0] ?? root;
    endChain(ctx, train, deepest, false);
    for (const rest of train.bisections.filter((x) => x.rootId === root.id)) endChain(ctx, train, rest, false);
  }
}

/**
 * The batches checked on top of a failed batch are rechecked without it (Zuul's "nearest
 * non-failing" reparenting, applied to batches): their checks stop (BATCH_AHEAD_FAILED) and start
 * again on top of the remaining batches, keeping their pull requests together. Later sub-batches of
 * the failed batch's own bisection are re-embarked instead (the culprit is in the failed one).
 */
export function rebuildDescendants(ctx: Ctx, train: Train, car: Car): void {
  const own = ctx.bisection(train, car.bisectionId);
  const ownRoot = own ? rootOf(train, own).id : null;
  const descendants = descendantsOf(train, car);
  const sameBisection = descendants.filter((d) => ownRoot !== null && d.bisectionId !== null && ctx.bisection(train, d.bisectionId)?.rootId === ownRoot);
  const gone = new Set([car.id, ...sameBisection.map((d) => d.id)]);
  cancelCars(ctx, train, sameBisection, "BATCH_AHEAD_FAILED");
  for (const d of descendants) {
    if (gone.has(d.id) || d.merging) continue;
    stopCheck(ctx, d, () => ({ code: "BATCH_AHEAD_FAILED" }));
    d.ancestors = d.ancestors.filter((a) => !gone.has(a));
    d.restartReason = `Rechecked without ${car.name}, which failed`;
  }
}

function canSplit(ctx: Ctx, car: Car, root: Bisection | null): boolean {
  const max = ctx.rule(car.queueRule)?.batchMaxFailureResolutionAttempts ?? null;
  return max === null || (root?.attempts ?? 0) < max;
}

/**
 * Replaces a failed batch by sub-batches checking cumulative prefixes of its members but the last;
 * they go behind the batches already in the train (which no longer depend on the failed one).
 */
function split(ctx: Ctx, train: Train, car: Car, parent: Bisection | null): void {
  const head = car.members.slice(0, -1);
  // As many parts as free checks slots allow (the failed batch's slot included), at least 2.
  const free = ctx.state.config.maxParallelChecks - train.cars.filter((c) => c !== car).length;
  const parts = Math.min(Math.max(2, free), head.length);
  const size = Math.ceil(head.length / parts);
  const record: Bisection = {
    id: car.id, name: car.name, queueRule: car.queueRule, rootId: parent?.rootId ?? car.id, parentId: parent?.id ?? null,
    depth: car.depth, members: [...car.members], ancestors: [...car.ancestors], scopes: car.scopes, allScopes: car.allScopes,
    subBatchIds: [], candidates: [car.members.at(-1)!], checkPullRequest: car.check?.number ?? null,
    timedOut: car.check?.timedOut ?? false, attempts: 0, startedAt: ctx.now, confirmedCulprits: [], droppedUnverified: [],
    memberRefs: car.members.map((n) => {
      const p = ctx.mustPull(n);
      return { number: n, baseRef: p.baseRef, queueRule: p.queueRule, priorityRuleName: p.priorityRuleName, sessionId: p.sessionId };
    }),
  };
  const root = parent ? rootOf(train, parent) : record;
  root.attempts += 1;
  discardCar(ctx, train, car, "bisection");
  record.ancestors = ancestorsFor(ctx, train, car);
  const prefix = car.name.replace(/^Batch /, "Sub-batch ");
  for (let i = 0, k = 0; i < head.length; i += size, k++) {
    const sub = addCar(ctx, train, {
      queueRule: car.queueRule, members: head.slice(i, i + size), ancestors: [...record.ancestors, ...record.subBatchIds],
      scopes: car.scopes, allScopes: car.allScopes, bisectionId: record.id, depth: car.depth + 1, name: `${prefix}.${k + 1}`,
    });
    record.subBatchIds.push(sub.id);
  }
  train.bisections.push(record);
  for (const ref of record.memberRefs) logBisectionStart(ctx, ref, record);
}

/** Every pull request of the original batch still queued and not in a passed batch leaves. */
function giveUp(ctx: Ctx, train: Train, root: Bisection, leaf: Bisection): void {
  const passed = new Set(train.cars.filter((c) => c.check?.phase === "passed").flatMap((c) => c.members));
  const unresolved = root.members.filter((n) => ctx.pull(n) && !passed.has(n));
  endChain(ctx, train, leaf, true);
  for (const n of unresolved) leaveQueue(ctx, n, "BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS");
}

/**
 * Resolves a failed batch whose ancestors all passed (or merged); see the module header.
 * The batch's check has concluded (its checks_end was logged).
 */
export function resolveFailedCar(ctx: Ctx, train: Train, car: Car): void {
  const parent = ctx.bisection(train, car.bisectionId) ?? null;
  const root = parent ? rootOf(train, parent) : null;
  const timedOut = car.check?.timedOut ?? false;
  rebuildDescendants(ctx, train, car);
  if (parent) reembarkCandidates(train, parent);
  const culpritCode = timedOut ? "CHECKS_TIMEOUT" : "CHECKS_FAILED";
  if (car.members.length === 1) {
    const culprit = car.members[0]!;
    discardCar(ctx, train, car, "culprit found");
    if (parent) { parent.confirmedCulprits.push(culprit); endChain(ctx, train, parent, false); }
    leaveQueue(ctx, culprit, culpritCode);
    return;
  }
  if (!canSplit(ctx, car, root)) {
    if (parent) { giveUp(ctx, train, root!, parent); discardCar(ctx, train, car, "max failure resolution attempts"); return; }
    const members = [...car.members];
    discardCar(ctx, train, car, "max failure resolution attempts");
    for (const n of members) leaveQueue(ctx, n, "BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS");
    return;
  }
  split(ctx, train, car, parent);
}

/**
 * Concludes bisections whose sub-batches all passed (or merged): the held candidate is the
 * culprit. Returns true when something changed.
 */
export function progressBisections(ctx: Ctx, train: Train): boolean {
  for (const b of [...train.bisections].sort((x, y) => y.depth - x.depth)) {
    if (train.bisections.some((x) => x.parentId === b.id)) continue;
    const live = train.cars.filter((c) => c.bisectionId === b.id);
    if (!live.every((c) => c.check?.phase === "passed")) continue;
    const candidates = b.candidates.filter((n) => ctx.pull(n));
    if (candidates.length === 0) { endChain(ctx, train, b, false); return true; }
    const code = b.depth === 0 ? "DROPPED_BY_BISECTION_ELIMINATION" : b.timedOut ? "CHECKS_TIMEOUT" : "CHECKS_FAILED";
    if (b.depth === 0) b.droppedUnverified.push(...candidates); else b.confirmedCulprits.push(...candidates);
    b.candidates = [];
    endChain(ctx, train, b, false);
    for (const n of candidates) leaveQueue(ctx, n, code);
    return true;
  }
  return false;
}
