/**
 * Batches ("cars") of a train: creating one on top of the batches it depends on, and cancelling
 * batches (their check stops, their pull requests go back to waiting or leave). A batch's check
 * includes the pull requests of all its ancestors: in serial mode every batch ahead (cumulative
 * speculation, docs/domain.md §3.4), in parallel mode the batches ahead that share a scope
 * (and theirs), in isolated mode none (§3.3).
 */
import type { AbortCode } from "./codes.js";
import type { Ctx } from "./context.js";
import { logChecksEnd, type CheckEnd } from "./log-events.js";
import type { Car, CheckAttempt, PullEntry, Train } from "./state.js";

/** Whether two scope sets share a scope (a batch touching every scope shares with all). */
export function scopesOverlap(a: { scopes: string[]; allScopes: boolean }, b: { scopes: string[]; allScopes: boolean }): boolean {
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
  const usable = train.cars.filter((c) => c.check?.phase !== "failed" && c.bisectionId === null);
  if (mode === "serial") return usable.map((c) => c.id);
  const picked = new Set<string>();
  for (const car of usable) {
    if (scopesOverlap(car, scopes)) { picked.add(car.id); car.ancestors.forEach((a) => picked.add(a)); }
  }
  return usable.filter((c) => picked.has(c.id)).map((c) => c.id);
}

/** Batches checked on top of `car` (having it among their ancestors). */
export function descendantsOf(train: Train, car: Car): Car[] {
  return train.cars.filter((c) => c.ancestors.includes(car.id));
}

/** Pull requests of a batch's check, in merge order: its ancestors' members, then its own. */
export function checkedPulls(train: Train, car: Car): number[] {
  const ahead = train.cars.filter((c) => car.ancestors.includes(c.id)).flatMap((c) => c.members);
  return [...ahead, ...car.members];
}

/** Appends a new batch to a train. */
export function addCar(ctx: Ctx, train: Train, init: Omit<Car, "id" | "name" | "createdAt" | "check" | "retries" | "merging" | "restartReason"> & { name?: string }, index?: number): Car {
  const { id, seq } = ctx.nextBatch();
  const car: Car = { ...init, id, name: init.name ?? `Batch ${seq}`, createdAt: ctx.now, check: null, retries: 0, merging: false, restartReason: null };
  if (index === undefined) train.cars.push(car); else train.cars.splice(index, 0, car);
  return car;
}

/**
 * checks_end of one member for a check attempt that started, which makes the batch the one the
 * member was checked in just before its next check (checks_start `previous_batch_*`).
 */
export function endCheckFor(ctx: Ctx, pull: PullEntry, car: Car, check: CheckAttempt, end: CheckEnd, maxRetries: number): void {
  logChecksEnd(ctx, pull, car, check, end, maxRetries);
  const ended = end.aborted ? "stopped" : end.conclusion === "success" ? "passed" : end.conclusion === "timed_out" ? "timed_out" : "failed";
  pull.previousBatch = { id: car.id, name: car.name, ended };
}

/** Stops a batch's check attempt: checks_end per member when it had started, then the cancel effect. */
export function stopCheck(ctx: Ctx, car: Car, endFor: (pr: number) => { code: AbortCode; reason?: string }): void {
  const check = car.check;
  if (!check) return;
  const rule = ctx.rule(car.queueRule);
  if (check.phase === "running") {
    check.endedAt = ctx.now;
    for (const m of car.members) {
      const pull = ctx.pull(m);
      if (pull) endCheckFor(ctx, pull, car, check, { aborted: true, ...endFor(m) }, rule?.maxChecksRetries ?? 0);
    }
  }
  ctx.emit({
    kind: "cancel_speculative_check", checkId: check.id, batchId: car.id, inPlace: check.mode === "in_place",
    draftBranch: check.branch, draftNumber: check.mode === "draft" ? check.number : null, reason: endFor(car.members[0]!).code,
  });
  releaseCheckingLabel(ctx, car);
  car.check = null;
}

/** Removes the checking label of a batch's members (merge_queue.checking_label). */
export function releaseCheckingLabel(ctx: Ctx, car: Car): void {
  const label = ctx.state.config.checkingLabel;
  if (!label || !car.check || car.check.phase === "creating") return;
  for (const m of car.members) if (ctx.pull(m)) ctx.emit({ kind: "remove_labels", number: m, labels: [label] });
}

/**
 * Cancels batches (in train order): their checks stop with `code` (or the code of `leaving` for a
 * pull request that leaves), their other members return to waiting keeping their readiness, and
 * the ids of bisections that lost a sub-batch are returned (to abandon). A batch being merged is
 * never cancelled: its merge is in flight.
 */
export function cancelCars(ctx: Ctx, train: Train, cars: Car[], code: AbortCode, leaving: Map<number, AbortCode> = new Map()): string[] {
  const abandoned = new Set<string>();
  const inMerge = new Set(batchesInMerge(train).map((c) => c.id));
  const ids = new Set(cars.filter((c) => !inMerge.has(c.id)).map((c) => c.id));
  for (const car of train.cars.filter((c) => ids.has(c.id))) {
    stopCheck(ctx, car, (pr) => ({ code: leaving.get(pr) ?? code }));
    for (const m of car.members) {
      const pull = ctx.pull(m);
      if (!pull) continue;
      if (!leaving.has(m) && !train.waiting.includes(m)) train.waiting.push(m);
    }
    if (car.bisectionId) abandoned.add(car.bisectionId);
  }
  train.cars = train.cars.filter((c) => !ids.has(c.id));
  return [...abandoned];
}

/**
 * Batches whose pull requests an in-flight merge takes: the merging batch and, with
 * skip_intermediate_results, the unmerged batches it was checked on top of (merged with it).
 * None of them may be cancelled, and none of their pull requests may leave, until the merge
 * result arrives.
 */
export function batchesInMerge(train: Train): Car[] {
  const ids = new Set(train.cars.filter((c) => c.merging).flatMap((c) => [c.id, ...c.ancestors]));
  return train.cars.filter((c) => ids.has(c.id));
}

/**
 * Whether `car`'s check must contain the pull requests of `other` (a batch ahead of it or merging
 * before it): always in serial mode, when their scopes overlap in parallel mode, never in isolated
 * mode (docs/domain.md §3.3).
 */
export function mustBuildOn(ctx: Ctx, car: Car, other: Car): boolean {
  const mode = ctx.state.config.mode;
  if (mode === "isolated") return false;
  return mode === "serial" || scopesOverlap(car, other);
}

/** A batch and every batch checked on top of it, in train order. */
export function withDescendants(train: Train, car: Car): Car[] {
  const d = new Set(descendantsOf(train, car).map((c) => c.id));
  return train.cars.filter((c) => c.id === car.id || d.has(c.id));
}
