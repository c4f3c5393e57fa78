/**
 * Results of checks (docs/domain.md §3.4-3.5): merge conditions true = passed, false = failed,
 * "pending" = still running, false only because of a schedule = waiting for it (`waiting_schedule`,
 * no timeout meanwhile), or held by a scheduled freeze (`frozen`, also after passing);
 * checks_timeout expiring = failed with a timeout. A failure is first retried while
 * max_checks_retries allows (a fresh draft; the aborted attempt ends with CHECKS_RETRIED); before
 * that, an attempt that failed twice on known flaky tests only is checked again from scratch once
 * (test-verdicts.ts). A failed batch is resolved once every batch it is checked on top of has
 * passed; until then it waits (waiting_for_previous_batches). The batches checked on top of it are
 * rechecked without it at once (they contain its failure) - unless skip_intermediate_results lets
 * a later batch vindicate it, in which case they run to the end.
 */
import { rebuildDescendants, resolveFailedBatch, sameTreeDescendants } from "./bisection.js";
import { descendantsOf, endCheckFor, stopCheck } from "./batches.js";
import type { Ctx } from "./context.js";
import type { Batch, CheckAttempt, EngineState, EpochMs, HoldKind, Train } from "./state.js";
import type { EventOf } from "./events.js";
import { rerunFailed, retestForFlakes, testVerdict } from "./test-verdicts.js";

const MAX_DURATIONS = 50;

/** Remembers a concluded check's duration (estimates and `checks_timeout: auto`), without a wait for a schedule. */
function recordDuration(ctx: Ctx, check: CheckAttempt): void {
  if (check.startedAt === null) return;
  ctx.state.ciDurations.push((check.ciEndedAt ?? ctx.now) - check.startedAt);
  if (ctx.state.ciDurations.length > MAX_DURATIONS)
    ctx.state.ciDurations.splice(0, ctx.state.ciDurations.length - MAX_DURATIONS);
}

/** Median of the recent CI durations in ms (estimates, giving way to a schedule), or null when none is known. */
export function typicalCiMs(ctx: Ctx): number | null {
  const d = [...ctx.state.ciDurations].sort((a, b) => a - b);
  if (d.length === 0) return null;
  return d.length % 2 ? d[(d.length - 1) / 2]! : Math.round((d[d.length / 2 - 1]! + d[d.length / 2]!) / 2);
}

/**
 * checks_timeout of a rule in milliseconds, or null (never). "auto": 1.2 x the 95th percentile
 * of recent CI durations, at least 60 s; null until 5 durations are known.
 */
export function checksTimeoutMs(ctx: Ctx, queueRule: string): number | null {
  const setting = ctx.rule(queueRule)?.checksTimeout ?? null;
  if (setting === null) return null;
  if (setting !== "auto") return setting * 1000;
  return autoChecksTimeoutMs(ctx.state);
}

/**
 * The value of `checks_timeout: auto` in milliseconds: 1.2 x the 95th percentile of the recent CI
 * durations of `state`, at least 60 s; null until 5 durations are known (docs/merge-queue.md).
 */
export function autoChecksTimeoutMs(state: Pick<EngineState, "ciDurations">): number | null {
  const d = [...state.ciDurations].sort((a, b) => a - b);
  if (d.length < 5) return null;
  return Math.max(60_000, Math.round(1.2 * d[Math.min(d.length - 1, Math.ceil(0.95 * d.length) - 1)]!));
}

/** A check concluded unsuccessfully (conditions false, or timed out): retry or mark failed. */
export function checkFailed(ctx: Ctx, batch: Batch, timedOut: boolean): void {
  const check = batch.check!;
  const maxRetries = ctx.rule(batch.queueRule)?.maxChecksRetries ?? 0;
  check.timedOut = timedOut;
  check.endedAt = ctx.now;
  recordDuration(ctx, check);
  // Failed twice on known flaky tests only: no culprit; checked again from scratch first.
  if (
    !timedOut &&
    retestForFlakes(ctx, batch, (reason) => stopCheck(ctx, batch, () => ({ code: "CHECKS_RETRIED", reason })))
  )
    return;
  if (batch.retries < maxRetries) {
    stopCheck(ctx, batch, () => ({ code: "CHECKS_RETRIED" }));
    batch.retries += 1;
    return;
  }
  check.phase = "failed";
  for (const m of batch.members) {
    const pull = ctx.pull(m);
    if (pull)
      endCheckFor(ctx, {
        pull,
        batch,
        check,
        end: { aborted: false, conclusion: timedOut ? "timed_out" : "failure" },
        maxRetries,
      });
  }
}

/**
 * check_results (the validated event, fields documented in events.ts): records the checks (and
 * each member's evaluated merge conditions, for its leave event) and concludes the attempt when
 * the conditions are decided; an unknown, cancelled or concluded check is ignored (a stale result).
 * `scheduleOpensAt` (epoch ms):
 * false only until then because of time or a scheduled freeze (`holdKind`); `scheduleBlocked`:
 * the members that holds for, each with its own instant (the others could merge now; see
 * schedule-yield.ts). For a check that passed and is not merging, only a freeze hold (or its
 * release, conditions true) is taken: docs/scheduled-freeze.md. Conditions false with `tests`
 * (the failing checks' test results) are read by test-verdicts.ts first: they may pass the check,
 * re-run it, or have it wait for its results.
 */
export function onCheckResults(ctx: Ctx, event: EventOf<"check_results">): void {
  const { checkId, conditions, checks, evaluations = {}, tests = null } = event;
  const held: HoldRequest | null =
    event.scheduleOpensAt === undefined || event.scheduleOpensAt === null
      ? null
      : {
          opensAt: event.scheduleOpensAt,
          blocked: event.scheduleBlocked ?? null,
          kind: event.holdKind ?? "schedule",
          openEnded: event.holdOpenEnded ?? false,
        };
  const found = ctx.findCheck(checkId);
  if (found?.check.phase === "passed" && !found.batch.merging) {
    if (conditions === false && held?.kind === "freeze") hold(ctx, found.batch, found.check, held);
    else if (conditions === true) releaseSchedule(ctx, found.batch, found.check);
    return;
  }
  if (!found || found.check.phase !== "running") return; // stale: a cancelled or concluded attempt
  const { train, batch, check } = found;
  check.checks = checks;
  for (const m of batch.members) {
    const p = ctx.pull(m);
    if (!p) continue;
    p.lastChecks = checks;
    if (evaluations[String(m)]) p.lastEvaluation = evaluations[String(m)];
  }
  if (conditions === false && held !== null) {
    // Only a schedule or a freeze stands in the way: wait for it (no timeout), checked again when it opens.
    hold(ctx, batch, check, held);
    return;
  }
  releaseSchedule(ctx, batch, check);
  if (conditions !== false) check.testsAwait = null;
  if (conditions === "pending") return;
  if (conditions === false) {
    const verdict = tests === null ? "fail" : testVerdict(ctx, train, batch, check, tests);
    if (verdict === "held") return;
    if (verdict === "fail") {
      checkFailed(ctx, batch, false);
      return;
    }
  }
  checkPassed(ctx, batch, check);
}

/** A running check passed (its conditions hold, or its only failures are quarantined tests): checks_end per member. */
function checkPassed(ctx: Ctx, batch: Batch, check: CheckAttempt): void {
  check.phase = "passed";
  check.endedAt = ctx.now;
  recordDuration(ctx, check);
  const maxRetries = ctx.rule(batch.queueRule)?.maxChecksRetries ?? 0;
  for (const m of batch.members) {
    const pull = ctx.pull(m);
    if (pull) endCheckFor(ctx, { pull, batch, check, end: { aborted: false, conclusion: "success" }, maxRetries });
  }
}

/** check_rerun_failed: the failed jobs could not run again; the check fails as it was. */
export function onCheckRerunFailed(ctx: Ctx, checkId: string, message: string): void {
  const found = ctx.findCheck(checkId);
  if (found && rerunFailed(found.check, message)) checkFailed(ctx, found.batch, false);
}

/** What holds a check's merge, from a check_results event (events.ts documents each field). */
interface HoldRequest {
  /** When the hold opens (epoch ms, UTC). */
  opensAt: EpochMs;
  /** The members held, each until its own instant (epoch ms, UTC); null: every member. */
  blocked: Record<string, EpochMs> | null;
  kind: HoldKind;
  /** The hold has no known end (a freeze without one): `opensAt` is only when to look again. */
  openEnded: boolean;
}

/** Holds a check's merge until `opensAt` (at least a second from now), for the blocked members or all. */
function hold(ctx: Ctx, batch: Batch, check: CheckAttempt, { opensAt, blocked, kind, openEnded }: HoldRequest): void {
  check.scheduleHeldSince ??= ctx.now;
  check.scheduleHeldUntil = Math.max(opensAt, ctx.now + 1000);
  check.scheduleHeldBy = kind;
  check.scheduleHeldOpenEnded = openEnded;
  const own = blocked === null ? null : Object.entries(blocked).filter(([n]) => batch.members.includes(Number(n)));
  check.scheduleBlocked =
    own === null || own.length === 0
      ? null
      : Object.fromEntries(own.map(([n, at]) => [n, Math.min(check.scheduleHeldUntil!, Math.max(at, ctx.now + 1000))]));
}

/**
 * Ends a check's hold: the time held counts for its pull requests (`seconds_waiting_for_schedule`
 * or `seconds_waiting_for_freeze`); for a running check the CI itself ended when the wait began.
 * Also called when a held batch gives way (schedule-yield.ts), so its wait so far is not lost.
 */
export function releaseSchedule(ctx: Ctx, batch: Batch, check: CheckAttempt): void {
  if (check.scheduleHeldSince === undefined || check.scheduleHeldSince === null) return;
  const waited = ctx.now - check.scheduleHeldSince;
  for (const m of batch.members) {
    const pull = ctx.pull(m);
    if (!pull) continue;
    if (check.scheduleHeldBy === "freeze") pull.freezeWaitMs = (pull.freezeWaitMs ?? 0) + waited;
    else pull.scheduleWaitMs = (pull.scheduleWaitMs ?? 0) + waited;
  }
  if (check.phase === "running") {
    check.ciEndedAt = check.scheduleHeldSince;
    check.scheduleWaitedMs = (check.scheduleWaitedMs ?? 0) + waited;
  }
  check.scheduleHeldSince = null;
  check.scheduleHeldUntil = null;
  check.scheduleHeldBy = null;
  check.scheduleHeldOpenEnded = false;
  check.scheduleBlocked = null;
}

/**
 * When a running check times out (epoch ms), or null: checks_timeout after its start (or its re-run
 * for known flaky tests), not counting the time it waited for a schedule; null while it waits, or
 * without a timeout.
 */
export function checksTimeoutAt(ctx: Ctx, batch: Batch): EpochMs | null {
  const check = batch.check;
  if (!check || check.startedAt === null || (check.scheduleHeldUntil ?? null) !== null) return null;
  const timeout = checksTimeoutMs(ctx, batch.queueRule);
  // A re-run for known flaky tests starts the CI again: its timeout counts from the re-run.
  const from = check.rerun?.requestedAt ?? check.startedAt;
  return timeout === null ? null : from + timeout + (check.scheduleWaitedMs ?? 0);
}

/** Running checks whose checks_timeout has expired fail with a timeout (not while waiting for a schedule). Returns true on change. */
export function expireTimeouts(ctx: Ctx, train: Train): boolean {
  let changed = false;
  for (const batch of [...train.batches]) {
    const check = batch.check;
    if (check?.phase !== "running") continue;
    const at = checksTimeoutAt(ctx, batch);
    if (at !== null && ctx.now >= at) {
      checkFailed(ctx, batch, true);
      changed = true;
    }
  }
  return changed;
}

/** Whether `batch` is the rest of a suspect-first split whose suspect's own check has not concluded yet. */
function siblingRunning(ctx: Ctx, train: Train, batch: Batch): boolean {
  const b = ctx.bisection(train, batch.bisectionId);
  if (b?.split?.strategy !== "suspect_first" || batch.members.includes(b.split.suspect!)) return false;
  return train.batches.some(
    (c) => c !== batch && c.bisectionId === b.id && c.check?.phase !== "passed" && c.check?.phase !== "failed",
  );
}

/**
 * Handles failed batches in train order: resolves those whose ancestors all passed, re-embarks
 * what is checked on top of the others. Returns true on change.
 */
export function resolveFailures(ctx: Ctx, train: Train): boolean {
  const skip = ctx.state.config.skipIntermediateResults;
  for (const batch of train.batches) {
    if (batch.check?.phase !== "failed") continue;
    const ancestors = train.batches.filter((c) => batch.ancestors.includes(c.id));
    const descendants = descendantsOf(train, batch);
    if (ancestors.every((a) => a.check?.phase === "passed")) {
      // With skip_intermediate_results a later batch being checked may still vindicate it (or
      // already did: it passed and will merge with it). Batches not started yet cannot.
      // Bisection sub-batches are never vindicated: their verdict is the bisection's.
      if (
        skip &&
        batch.bisectionId === null &&
        descendants.some((d) => d.bisectionId === null && d.check !== null && d.check.phase !== "failed")
      )
        continue;
      // Suspect-first: the rest failing is judged once the suspect's own check concluded.
      if (siblingRunning(ctx, train, batch)) continue;
      resolveFailedBatch(ctx, train, batch);
      return true;
    }
    // Its later prefixes stay: it is not judged yet (a batch it is checked on top of may still fail).
    const sameTree = sameTreeDescendants(ctx, train, batch);
    if (!skip && descendants.some((d) => !sameTree.includes(d))) {
      rebuildDescendants(ctx, train, batch, undefined, false);
      return true;
    }
  }
  return false;
}
