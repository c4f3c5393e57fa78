/**
 * Wall-clock time in IANA time zones, on top of the runtime's `Intl` data (no library needed):
 * what a UTC instant reads as in a zone, and which UTC instant a wall-clock time in a zone is.
 * Used by schedules, `current-datetime` intervals and the legacy current-* attributes
 * (docs/domain.md §1.8, docs/conditions.md "Timestamps").
 */

/** A wall-clock reading. Month 1-12, day 1-31, hour 0-23, weekday 1 (Monday) to 7 (Sunday). */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      weekday: "short",
    });
    formatters.set(zone, f);
  }
  return f;
}

/** True when the runtime knows the IANA zone name (case-sensitive as IANA writes it, or "UTC"). */
export function isKnownTimeZone(zone: string): boolean {
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

/** How `instant` reads on a wall clock in `zone`. @throws RangeError for an unknown zone. */
export function wallClock(instant: Date, zone: string): WallClock {
  const parts: Record<string, string> = {};
  for (const p of formatter(zone).formatToParts(instant)) parts[p.type] = p.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: WEEKDAYS[parts.weekday] ?? 1,
  };
}

/** Offset of `zone` from UTC at `instant`, in milliseconds (east positive). */
function offsetAt(instant: number, zone: string): number {
  const w = wallClock(new Date(instant), zone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The UTC instant at which the wall clock of `zone` shows the given time (seconds 0). Day overflow
 * is normalised (day 32 = next month). A time skipped by a daylight-saving jump resolves to the
 * instant just after the jump; a repeated time resolves to its first occurrence.
 */
export function zonedToUtc(
  t: { year: number; month: number; day: number; hour: number; minute: number },
  zone: string,
): Date {
  const naive = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, 0);
  const first = naive - offsetAt(naive, zone);
  const second = naive - offsetAt(first, zone);
  if (second === first) return new Date(first);
  // Around a transition: prefer the earliest candidate that reads back as the requested time,
  // else (time skipped by the jump) the later of the two.
  const candidates = [Math.min(first, second), Math.max(first, second)];
  for (const c of candidates) {
    const w = wallClock(new Date(c), zone);
    if (w.hour === t.hour && w.minute === t.minute) return new Date(c);
  }
  return new Date(Math.max(first, second));
}

/** Adds whole days to a calendar date (no zone involved). */
export function addDays(
  date: { year: number; month: number; day: number },
  days: number,
): { year: number; month: number; day: number } {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}
