/**
 * The scheduling loop run after every event: the rules are applied to each train until nothing
 * changes (timeouts, failure resolution, bisection verdicts, batches giving way to a closed
 * schedule, merges, checks to start, batches to form), then the timers the state needs are
 * diffed against those scheduled, running-check counts are logged when they changed, and empty
 * trains are dropped. Each rule returns true only when it changed the state, so the loop ends.
 */
import { leaveDeletedBases } from "./base.js";
import { progressBisections } from "./bisection.js";
import { startChecks } from "./checks.js";
import type { Ctx } from "./context.js";
import { formBatches } from "./formation.js";
import { logChecksChange } from "./log-events.js";
import { startMerges } from "./merging.js";
import { checksTimeoutAt, expireTimeouts, resolveFailures } from "./outcomes.js";
import { nextScheduleReturn, SCHEDULE_YIELD_TIMER_PREFIX, yieldToSchedules } from "./schedule-yield.js";
import { TEST_RESULTS_TIMER_PREFIX } from "./test-facts.js";

const MAX_ROUNDS = 10_000;

/** Key prefix of the timer of a check waiting for a schedule (then `<check id>`): the runner evaluates that check again when it fires. */
export const SCHEDULE_TIMER_PREFIX = "schedule/";

/** Timer keys and due times the state needs now. */
export function desiredTimers(ctx: Ctx): Record<string, number> {
  const out: Record<string, number> = {};
  for (const train of ctx.state.trains) {
    if (train.forming !== null) out[`batch-wait/${train.branch}/${train.partition}`] = train.forming.startsAt;
    const returns = nextScheduleReturn(ctx, train);
    if (returns !== null) out[`${SCHEDULE_YIELD_TIMER_PREFIX}${train.branch}/${train.partition}`] = returns;
    for (const batch of train.batches) {
      const check = batch.check;
      if (!check) continue;
      if (check.phase === "creating" && check.nextCreationAt !== null)
        out[`create-retry/${batch.id}`] = check.nextCreationAt;
      const heldUntil = check.scheduleHeldUntil ?? null;
      if ((check.phase === "running" || check.phase === "passed") && heldUntil !== null)
        out[`${SCHEDULE_TIMER_PREFIX}${check.id}`] = heldUntil;
      else if (check.phase === "running") {
        const at = checksTimeoutAt(ctx, batch);
        if (at !== null) out[`checks-timeout/${check.id}`] = at;
        // Test results awaited (test-verdicts.ts): the runner evaluates the check again then.
        if (check.testsAwait) out[`${TEST_RESULTS_TIMER_PREFIX}${check.id}`] = check.testsAwait.nextLookAt;
      }
    }
  }
  return out;
}

function syncTimers(ctx: Ctx): void {
  const want = desiredTimers(ctx);
  const have = ctx.state.timers;
  for (const key of Object.keys(have))
    if (!(key in want)) {
      ctx.emit({ kind: "cancel_timer", key });
      delete have[key];
    }
  for (const [key, dueAt] of Object.entries(want))
    if (have[key] !== dueAt) {
      ctx.emit({ kind: "schedule_timer", key, dueAt });
      have[key] = dueAt;
    }
}

function syncRunningChecks(ctx: Ctx): void {
  const counts: Record<string, number> = {};
  for (const train of ctx.state.trains) {
    for (const batch of train.batches) {
      const key = `${train.branch}\u001f${batch.queueRule}`;
      counts[key] ??= 0;
      if (batch.check?.phase === "running" || batch.check?.phase === "creating") counts[key] += 1;
    }
  }
  const previous = ctx.state.runningChecks;
  for (const key of new Set([...Object.keys(previous), ...Object.keys(counts)])) {
    const now = counts[key] ?? 0;
    if ((previous[key] ?? 0) === now) continue;
    const [branch, queueName] = key.split("\u001f") as [string, string];
    logChecksChange(ctx, branch, queueName, now);
  }
  ctx.state.runningChecks = Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0));
}

function prune(ctx: Ctx): void {
  const s = ctx.state;
  s.trains = s.trains.filter((t) => t.batches.length || t.waiting.length || t.bisections.length);
  for (const branch of Object.keys(s.bases)) {
    if (!s.trains.some((t) => t.branch === branch) && s.bases[branch]!.mergingBatchId === null) delete s.bases[branch];
  }
}

/** Applies the queue rules until a fixed point, then syncs timers and running-check counts. */
export function reconcile(ctx: Ctx): void {
  for (let round = 0; ; round++) {
    if (round >= MAX_ROUNDS) throw new Error("engine invariant: the scheduling loop did not settle");
    let changed = leaveDeletedBases(ctx);
    for (const train of [...ctx.state.trains]) {
      changed = expireTimeouts(ctx, train) || changed;
      changed = resolveFailures(ctx, train) || changed;
      changed = progressBisections(ctx, train) || changed;
      changed = yieldToSchedules(ctx, train) || changed;
      changed = startMerges(ctx, train) || changed;
      changed = startChecks(ctx, train) || changed;
      changed = formBatches(ctx, train) || changed;
    }
    if (!changed) break;
  }
  prune(ctx);
  syncTimers(ctx);
  syncRunningChecks(ctx);
}
