/**
 * Time values of the conditions language (docs/domain.md §1.8, docs/conditions.md "Timestamps"):
 * ISO-8601 timestamps (no zone = UTC, `Z`, `+02:00` or `[IANA/Zone]`), relative times
 * (`3 days ago`, `14 days 3 hours ago`, `24h ago`, legacy `3 days 04:05 ago`) and the
 * `start/end[Zone]` intervals of `current-datetime`, whose fields may be `XXXX`/`XX` wildcards.
 */
import type { DatetimeInterval, PartialDatetime } from "../model.js";
import { parseDuration } from "../duration.js";
import { splitZone } from "./schedule.js";
import { ValueError } from "./value-error.js";
import { wallClock, zonedToUtc } from "./zones.js";

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

const TIMESTAMP_EXPECTED =
  "expected an ISO-8601 timestamp such as 2026-01-31T18:00, 2026-01-31T18:00:00Z or 2026-01-31T18:00[Europe/Paris]";

function checkRanges(text: string, month: number, day: number, hour: number, minute: number, second: number): void {
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) {
    throw new ValueError(`invalid timestamp "${text}": a field is out of range`);
  }
}

/** Parses an ISO-8601 timestamp into a UTC instant. @throws ValueError */
export function parseTimestamp(text: string): Date {
  const { body, zone } = splitZone(text.trim());
  const m = ISO.exec(body.trim());
  if (m === null) throw new ValueError(`invalid timestamp "${text}": ${TIMESTAMP_EXPECTED}`);
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  checkRanges(text, month, day, hour, minute, second);
  const millis = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  const offset = m[8];
  if (offset !== undefined && zone !== null)
    throw new ValueError(`invalid timestamp "${text}": give either a UTC offset or a [Time/Zone], not both`);
  if (offset !== undefined && offset.toUpperCase() !== "Z") {
    const sign = offset.startsWith("-") ? -1 : 1;
    const digits = offset.slice(1).replace(":", "");
    const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0);
    return new Date(Date.UTC(year, month - 1, day, hour, minute, second, millis) - sign * minutes * 60_000);
  }
  if (zone !== null) {
    const base = zonedToUtc({ year, month, day, hour, minute }, zone);
    return new Date(base.getTime() + second * 1000 + millis);
  }
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, millis));
}

const LEGACY_RELATIVE = /^(?:(\d+)\s*days?\s*)?(?:(\d+):(\d{2}))?$/i;

/**
 * Parses a relative time such as `7 days ago`: the number of seconds before now.
 * Returns null when the text does not end with `ago` (it is then read as a timestamp).
 * @throws ValueError for an unreadable amount before `ago`.
 */
export function parseRelative(text: string): number | null {
  const m = /^(.*?)\s*\bago$/i.exec(text.trim());
  if (m === null) return null;
  const amount = m[1].trim();
  const legacy = LEGACY_RELATIVE.exec(amount);
  if (amount !== "" && legacy !== null && legacy[3] !== undefined) {
    return Number(legacy[1] ?? 0) * 86400 + Number(legacy[2]) * 3600 + Number(legacy[3]) * 60;
  }
  try {
    return parseDuration(amount);
  } catch {
    throw new ValueError(
      `invalid relative time "${text}": expected an amount of time followed by "ago", e.g. "7 days ago" or "3 hours 30 minutes ago"`,
    );
  }
}

const PARTIAL = /^(\d{4}|XXXX)-(\d{2}|XX)-(\d{2}|XX)(?:T(\d{2}|XX):(\d{2}|XX))?$/i;

function parsePartial(text: string, isEnd: boolean, whole: string): PartialDatetime {
  const m = PARTIAL.exec(text.trim());
  if (m === null)
    throw new ValueError(
      `invalid interval "${whole}": expected start/end such as XXXX-12-25T00:00/XXXX-12-25T23:59[Europe/Paris]`,
    );
  const field = (s: string | undefined, fallback: number): number | null =>
    s === undefined ? fallback : /^x+$/i.test(s) ? null : Number(s);
  const p: PartialDatetime = {
    year: field(m[1], 0),
    month: field(m[2], 0),
    day: field(m[3], 0),
    hour: field(m[4], isEnd ? 23 : 0),
    minute: field(m[5], isEnd ? 59 : 0),
  };
  if (
    (p.month !== null && (p.month < 1 || p.month > 12)) ||
    (p.day !== null && (p.day < 1 || p.day > 31)) ||
    (p.hour !== null && p.hour > 23) ||
    (p.minute !== null && p.minute > 59)
  ) {
    throw new ValueError(`invalid interval "${whole}": a field is out of range`);
  }
  return p;
}

/** Parses `start/end[Zone]` (both ends inclusive to the minute). @throws ValueError */
export function parseInterval(text: string): DatetimeInterval {
  const { body, zone } = splitZone(text.trim());
  const halves = body.split("/");
  if (halves.length !== 2)
    throw new ValueError(
      `invalid interval "${text}": expected start/end such as XXXX-12-25T00:00/XXXX-12-25T23:59[Europe/Paris]`,
    );
  return {
    start: parsePartial(halves[0], false, text),
    end: parsePartial(halves[1], true, text),
    timezone: zone ?? "UTC",
  };
}

type Tuple = [number, number, number, number, number];

function resolve(p: PartialDatetime, w: Tuple): Tuple {
  return [p.year ?? w[0], p.month ?? w[1], p.day ?? w[2], p.hour ?? w[3], p.minute ?? w[4]];
}

function compare(a: Tuple, b: Tuple): number {
  for (let i = 0; i < 5; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

function tupleAt(instant: Date, zone: string): Tuple {
  const w = wallClock(instant, zone);
  return [w.year, w.month, w.day, w.hour, w.minute];
}

/** True when `instant` is inside the interval (wildcards take the instant's own fields). */
export function intervalMatches(interval: DatetimeInterval, instant: Date): boolean {
  const now = tupleAt(instant, interval.timezone);
  const start = resolve(interval.start, now);
  const end = resolve(interval.end, now);
  if (compare(start, end) <= 0) return compare(now, start) >= 0 && compare(now, end) <= 0;
  return compare(now, start) >= 0 || compare(now, end) <= 0;
}

/** Index of the finest wildcard field (0 year .. 4 minute), or -1 without wildcards. */
function finestWildcard(interval: DatetimeInterval): number {
  const keys = ["year", "month", "day", "hour", "minute"] as const;
  let finest = -1;
  keys.forEach((k, i) => {
    if (interval.start[k] === null || interval.end[k] === null) finest = i;
  });
  return finest;
}

function shift(t: Tuple, unit: number, amount: number): Tuple {
  const d = new Date(
    Date.UTC(
      t[0] + (unit === 0 ? amount : 0),
      t[1] - 1 + (unit === 1 ? amount : 0),
      t[2] + (unit === 2 ? amount : 0),
      t[3] + (unit === 3 ? amount : 0),
      t[4] + (unit === 4 ? amount : 0),
    ),
  );
  return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes()];
}

function toInstant(t: Tuple, zone: string): number {
  return zonedToUtc({ year: t[0], month: t[1], day: t[2], hour: t[3], minute: t[4] }, zone).getTime();
}

/** The first instant after `now` at which {@link intervalMatches} changes, or null if never. */
export function intervalNextChange(interval: DatetimeInterval, now: Date): Date | null {
  const zone = interval.timezone;
  const here = tupleAt(now, zone);
  const unit = finestWildcard(interval);
  const candidates: number[] = [];
  for (let i = -1; i <= (unit < 0 ? -1 : 2); i++) {
    const anchor = unit < 0 ? here : shift(here, unit, i);
    candidates.push(toInstant(resolve(interval.start, anchor), zone));
    candidates.push(toInstant(shift(resolve(interval.end, anchor), 4, 1), zone));
  }
  return firstChange(now, candidates, (t) => intervalMatches(interval, t));
}

/**
 * Among candidate instants (milliseconds), the earliest after `now` at which `evaluate` differs
 * from its value at `now`; null when none does.
 */
export function firstChange(now: Date, candidates: number[], evaluate: (t: Date) => boolean): Date | null {
  const current = evaluate(now);
  const sorted = [...new Set(candidates)].filter((t) => t > now.getTime()).sort((a, b) => a - b);
  for (const t of sorted) if (evaluate(new Date(t)) !== current) return new Date(t);
  return null;
}
