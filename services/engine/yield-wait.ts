/**
 * The wait of a pull request that gave way to a closed merge schedule or a scheduled freeze
 * (schedule-yield.ts): from giving way until its hold ends (or earlier, when it is embarked again,
 * released or leaves), counted in the leave event's `seconds_waiting_for_schedule` or
 * `seconds_waiting_for_freeze`, like the time its batch was held before giving way.
 */
import type { EpochMs, PullEntry } from "./state.js";

/** Ends a pull request's wait outside the train at `now` (epoch ms): counts it and clears the hold. No-op when it is not held back. */
export function endYield(pull: PullEntry, now: EpochMs): void {
  const since = pull.scheduleYieldSince ?? null;
  if (since !== null) {
    const waited = Math.max(0, Math.min(now, pull.scheduleYieldUntil ?? now) - since);
    if (pull.scheduleYieldBy === "freeze") pull.freezeWaitMs = (pull.freezeWaitMs ?? 0) + waited;
    else pull.scheduleWaitMs = (pull.scheduleWaitMs ?? 0) + waited;
  }
  pull.scheduleYieldSince = null;
  pull.scheduleYieldUntil = null;
  pull.scheduleYieldBy = undefined;
}
