/**
 * Merge conditions that are false only because of time (docs/domain.md §2.3 "Next evaluation
 * time"): a `schedule` merge window that is closed, a `current-time` bound... A check whose
 * conditions fail for that reason alone waits for them (`waiting_schedule`) instead of failing.
 * The conditions are evaluated again at each instant one of their time-based leaves flips, up to
 * {@link HORIZON_MS} ahead, with everything else (checks, labels, reviews) as it is now.
 */
import type { EvaluatedCondition, Truth } from "../model.js";

/** How far ahead a closed schedule is followed (8 days: a weekly window always reopens). */
export const HORIZON_MS = 8 * 24 * 3_600_000;
/** Flips followed at most (a weekly schedule with a few windows per day stays well under it). */
const MAX_FLIPS = 64;

/** What the conditions say now, and when they hold if only time stands in the way. */
export interface ScheduleVerdict {
  /** As evaluated now; "pending" also when time is the only definitive blocker but a check is still pending. */
  truth: Truth;
  /** With truth false: the instant (epoch ms, UTC) from which they hold; null when something else fails them. */
  opensAt: number | null;
}

/**
 * The verdict of conditions evaluated at `now` by `evaluateAt` (the same pull request and checks,
 * another instant).
 */
export function scheduleVerdict(evaluateAt: (at: Date) => EvaluatedCondition, now: Date): ScheduleVerdict {
  const current = evaluateAt(now);
  if (current.match !== false) return { truth: current.match, opensAt: null };
  let at = current.nextChangeAt;
  for (let flips = 0; at !== null && flips < MAX_FLIPS && at.getTime() - now.getTime() <= HORIZON_MS; flips++) {
    const later = evaluateAt(at);
    if (later.match === true) return { truth: false, opensAt: at.getTime() };
    if (later.match === "pending") return { truth: "pending", opensAt: null };
    const next = later.nextChangeAt;
    at = next === null ? null : new Date(Math.max(next.getTime(), at.getTime() + 1000));
  }
  return { truth: false, opensAt: null };
}

/**
 * The first instant after `now`, up to about {@link HORIZON_MS} ahead, at which conditions
 * evaluated by `evaluateAt` (the same facts, another instant) hold where they did not at `now`, or
 * the other way round (pending counts as not holding):
 * the instant a pull request rule's verdict changes because of the clock alone
 * (docs/workflow-automation.md "When actions run", item 6). Flips of a time leaf that do not change
 * the result (a schedule under a label that is missing) are skipped. Null when no time leaf will
 * change; when the horizon or {@link MAX_FLIPS} is reached first, the last flip looked at (the
 * conditions are looked at again then).
 */
export function nextVerdictChange(evaluateAt: (at: Date) => EvaluatedCondition, now: Date): Date | null {
  const current = evaluateAt(now);
  let at = current.nextChangeAt;
  for (let flips = 0; at !== null; flips++) {
    if (flips >= MAX_FLIPS || at.getTime() - now.getTime() > HORIZON_MS) return at;
    const later = evaluateAt(at);
    if ((later.match === true) !== (current.match === true)) return at;
    const next = later.nextChangeAt;
    at = next === null ? null : new Date(Math.max(next.getTime(), at.getTime() + 1));
  }
  return null;
}
