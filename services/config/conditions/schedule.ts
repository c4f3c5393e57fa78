/**
 * The `schedule` value type (docs/domain.md §1.8, docs/conditions.md "Schedules"):
 * `DAYS`, `TIMES` or `DAYS TIMES`, with an optional `[IANA/Zone]` (UTC by default).
 * DAYS is `D` or `D1-D2` (mon..sun, monday..sunday, 1..7, any case); TIMES is `HH:MM-HH:MM`.
 * Both ranges are inclusive (times to the minute: `09:00-17:00` ends at 17:00:59) and wrap around
 * (`Fri-Mon`, `22:00-06:00`). Days and times must both match.
 */
import type { Schedule } from "../model.js";
import { addDays, isKnownTimeZone, wallClock, zonedToUtc } from "./zones.js";
import { ValueError } from "./value-error.js";

const DAY_NAMES: Record<string, number> = {
  mon: 1,
  monday: 1,
  tue: 2,
  tuesday: 2,
  wed: 3,
  wednesday: 3,
  thu: 4,
  thursday: 4,
  fri: 5,
  friday: 5,
  sat: 6,
  saturday: 6,
  sun: 7,
  sunday: 7,
  "1": 1,
  "2": 2,
  "3": 3,
  "4": 4,
  "5": 5,
  "6": 6,
  "7": 7,
};

/** Reads a day of the week (mon..sun, monday..sunday, 1..7). @throws ValueError */
export function parseDayOfWeek(text: string): number {
  const day = DAY_NAMES[text.trim().toLowerCase()];
  if (day === undefined) throw new ValueError(`invalid day "${text}": expected mon..sun, monday..sunday or 1..7`);
  return day;
}

/** Reads `HH:MM` (00:00 to 23:59). @throws ValueError */
export function parseTimeOfDay(text: string): { hour: number; minute: number } {
  const m = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (m === null || Number(m[1]) > 23 || Number(m[2]) > 59)
    throw new ValueError(`invalid time "${text}": expected HH:MM from 00:00 to 23:59`);
  return { hour: Number(m[1]), minute: Number(m[2]) };
}

/** Splits a trailing `[Zone]` off a text and checks the zone. @throws ValueError */
export function splitZone(text: string): { body: string; zone: string | null } {
  const m = /^(.*?)\[([^\]]*)\]\s*$/.exec(text);
  if (m === null) return { body: text, zone: null };
  const zone = m[2].trim();
  if (!isKnownTimeZone(zone))
    throw new ValueError(`unknown time zone "${zone}": expected an IANA name such as Europe/Paris`);
  return { body: m[1], zone };
}

const SCHEDULE_EXPECTED = "expected days (Mon-Fri), times (09:00-17:30) or both, optionally followed by a [Time/Zone]";

function parseDays(text: string): Schedule["days"] {
  const parts = text.split("-");
  if (parts.length > 2) throw new ValueError(`invalid days "${text}": ${SCHEDULE_EXPECTED}`);
  const from = parseDayOfWeek(parts[0]);
  return { from, to: parts.length === 2 ? parseDayOfWeek(parts[1]) : from };
}

function parseTimes(text: string): { times: NonNullable<Schedule["times"]>; zone: string | null } {
  const m = /^([^-]+)-([^-]+)$/.exec(text);
  if (m === null) throw new ValueError(`invalid times "${text}": ${SCHEDULE_EXPECTED}`);
  const start = splitZone(m[1].trim());
  const end = splitZone(m[2].trim());
  if (start.zone !== null && end.zone !== null && start.zone !== end.zone) {
    throw new ValueError(`the two times of "${text}" name different time zones`);
  }
  return { times: { from: parseTimeOfDay(start.body), to: parseTimeOfDay(end.body) }, zone: end.zone ?? start.zone };
}

/** Parses a schedule value. @throws ValueError naming what is wrong. */
export function parseSchedule(text: string): Schedule {
  const trimmed = text.trim();
  if (trimmed === "") throw new ValueError(`empty schedule: ${SCHEDULE_EXPECTED}`);
  const words = trimmed.split(/\s+/);
  if (words.length > 2) throw new ValueError(`invalid schedule "${trimmed}": ${SCHEDULE_EXPECTED}`);
  let days: Schedule["days"] = null;
  let times: Schedule["times"] = null;
  let zone: string | null = null;
  for (const word of words) {
    if (word.includes(":")) {
      if (times !== null) throw new ValueError(`invalid schedule "${trimmed}": ${SCHEDULE_EXPECTED}`);
      ({ times, zone } = parseTimes(word));
    } else {
      if (days !== null || times !== null) throw new ValueError(`invalid schedule "${trimmed}": ${SCHEDULE_EXPECTED}`);
      const split = splitZone(word);
      days = parseDays(split.body);
      zone = split.zone;
    }
  }
  return { days, times, timezone: zone ?? "UTC" };
}

function within(value: number, from: number, to: number): boolean {
  return from <= to ? value >= from && value <= to : value >= from || value <= to;
}

/** True when `instant` falls inside the schedule. */
export function scheduleMatches(schedule: Schedule, instant: Date): boolean {
  const w = wallClock(instant, schedule.timezone);
  if (schedule.days !== null && !within(w.weekday, schedule.days.from, schedule.days.to)) return false;
  if (schedule.times !== null) {
    const minute = w.hour * 60 + w.minute;
    const { from, to } = schedule.times;
    if (!within(minute, from.hour * 60 + from.minute, to.hour * 60 + to.minute)) return false;
  }
  return true;
}

/**
 * The first instant after `now` at which {@link scheduleMatches} changes, or null when it never
 * does (a schedule covering every minute). Looks at most 8 days ahead, which covers any weekly
 * window.
 */
export function scheduleNextChange(schedule: Schedule, now: Date): Date | null {
  const current = scheduleMatches(schedule, now);
  const today = wallClock(now, schedule.timezone);
  const candidates: number[] = [];
  const minutesOfDay: number[] = [0];
  if (schedule.times !== null) {
    minutesOfDay.push(schedule.times.from.hour * 60 + schedule.times.from.minute);
    const afterEnd = schedule.times.to.hour * 60 + schedule.times.to.minute + 1;
    if (afterEnd < 1440) minutesOfDay.push(afterEnd);
  }
  for (let d = 0; d <= 8; d++) {
    const date = addDays(today, d);
    for (const m of minutesOfDay) {
      const t = zonedToUtc({ ...date, hour: Math.floor(m / 60), minute: m % 60 }, schedule.timezone).getTime();
      if (t > now.getTime()) candidates.push(t);
    }
  }
  candidates.sort((a, b) => a - b);
  for (const t of candidates) if (scheduleMatches(schedule, new Date(t)) !== current) return new Date(t);
  return null;
}
