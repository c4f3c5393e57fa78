/**
 * Leaves whose result depends on the current time, with the next instant at which that result can
 * change (docs/domain.md §2.3 "Next evaluation time", docs/conditions.md "Timestamps"):
 * timestamps compared with relative times (`updated-at < 7 days ago`), `current-datetime`,
 * `schedule` and the legacy `current-time`, `current-day`, `current-month`, `current-year`,
 * `current-day-of-week`.
 */
import type { ConditionLeaf, Operator } from "../model.js";
import { order } from "./compare.js";
import { firstChange, intervalMatches, intervalNextChange } from "./datetime.js";
import { scheduleMatches, scheduleNextChange } from "./schedule.js";
import { addDays, wallClock, zonedToUtc } from "./zones.js";

/** A time leaf's result before the `-` modifier. */
export interface TimeResult {
  match: boolean;
  nextChangeAt: Date | null;
}

/**
 * When `now op boundary` (with `now` moving forward) next changes value: for `>=` and `<` at the
 * boundary itself, for `>` and `<=` one millisecond after it. Null when already past.
 */
export function crossing(boundary: number, op: Operator, now: Date): Date | null {
  const at = op === ">=" || op === "<" || op === "=" ? boundary : boundary + 1;
  return at > now.getTime() ? new Date(at) : null;
}

/**
 * For `date op (now - seconds)`: when the comparison of one date changes as time passes. The
 * comparison is `date op now-s`, i.e. `now mirror(op) date+s`.
 */
export function relativeCrossing(date: Date, seconds: number, op: Operator, now: Date): Date | null {
  const mirror: Partial<Record<Operator, Operator>> = { "<": ">", ">": "<", "<=": ">=", ">=": "<=" };
  const m = mirror[op];
  return m === undefined ? null : crossing(date.getTime() + seconds * 1000, m, now);
}

/** The earliest non-null instant. */
export function earliest(instants: (Date | null)[]): Date | null {
  let best: Date | null = null;
  for (const i of instants) if (i !== null && (best === null || i.getTime() < best.getTime())) best = i;
  return best;
}

/** `current-datetime` and `current-timestamp`. */
export function evaluateCurrentDatetime(leaf: ConditionLeaf, now: Date): TimeResult {
  const v = leaf.value;
  if (v?.type === "interval") {
    const inside = intervalMatches(v.interval, now);
    return { match: leaf.operator === "!=" ? !inside : inside, nextChangeAt: intervalNextChange(v.interval, now) };
  }
  if (v?.type === "timestamp" && leaf.operator !== null) {
    return {
      match: order(now.getTime(), v.value.getTime(), leaf.operator),
      nextChangeAt: crossing(v.value.getTime(), leaf.operator, now),
    };
  }
  return { match: false, nextChangeAt: null };
}

/** `schedule=...` / `schedule!=...`. */
export function evaluateSchedule(leaf: ConditionLeaf, now: Date): TimeResult {
  if (leaf.value?.type !== "schedule") return { match: false, nextChangeAt: null };
  const inside = scheduleMatches(leaf.value.schedule, now);
  return {
    match: leaf.operator === "!=" ? !inside : inside,
    nextChangeAt: scheduleNextChange(leaf.value.schedule, now),
  };
}

function legacyCandidates(now: Date, zone: string, minuteMarks: number[]): number[] {
  const today = wallClock(now, zone);
  const out: number[] = [];
  for (let d = 0; d <= 32; d++) {
    const date = addDays(today, d);
    for (const m of [0, ...minuteMarks])
      if (m < 1440) out.push(zonedToUtc({ ...date, hour: Math.floor(m / 60), minute: m % 60 }, zone).getTime());
  }
  for (let k = 1; k <= 13; k++) {
    const month = ((today.month - 1 + k) % 12) + 1;
    const year = today.year + Math.floor((today.month - 1 + k) / 12);
    out.push(zonedToUtc({ year, month, day: 1, hour: 0, minute: 0 }, zone).getTime());
  }
  return out;
}

/** The legacy current-time / current-day / current-month / current-year / current-day-of-week. */
export function evaluateLegacyClock(leaf: ConditionLeaf, now: Date): TimeResult {
  const v = leaf.value;
  const op = leaf.operator;
  if (v === null || op === null) return { match: false, nextChangeAt: null };
  let zone = "UTC";
  let reference: number;
  let read: (t: Date) => number;
  const marks: number[] = [];
  if (v.type === "time-of-day") {
    zone = v.timezone;
    reference = v.hour * 60 + v.minute;
    marks.push(reference, reference + 1);
    read = (t) => {
      const w = wallClock(t, zone);
      return w.hour * 60 + w.minute;
    };
  } else if (v.type === "number") {
    reference = v.value;
    const field = leaf.attribute;
    read = (t) => {
      const w = wallClock(t, "UTC");
      if (field === "current-day") return w.day;
      if (field === "current-month") return w.month;
      if (field === "current-year") return w.year;
      return w.weekday;
    };
  } else {
    return { match: false, nextChangeAt: null };
  }
  const evaluate = (t: Date): boolean => order(read(t), reference, op);
  const candidates = legacyCandidates(now, zone, marks);
  if (leaf.attribute === "current-year")
    candidates.push(
      Date.UTC(reference, 0, 1),
      Date.UTC(reference + 1, 0, 1),
      Date.UTC(wallClock(now, "UTC").year + 1, 0, 1),
    );
  return { match: evaluate(now), nextChangeAt: firstChange(now, candidates, evaluate) };
}
