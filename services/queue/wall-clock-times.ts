/**
 * The date-times of the flat scheduled freeze shape (docs/mergify-cli.md): Mergify's CLI sends
 * and shows `start` and `end` as ISO 8601 wall-clock times without an offset, read in the freeze's
 * `timezone` (crates/mergify-freeze/src/common.rs of github.com/Mergifyio/mergify-cli: "the API
 * treats start / end as naive in the freeze's own timezone"). Pure.
 */
import { invalidField } from "../contracts/index.js";
import { isKnownTimeZone, wallClock, zonedToUtc } from "../config/index.js";

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/;

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/**
 * The IANA zone of a request, "UTC" for an empty one.
 * @throws InvalidArgumentError naming `timezone` for a zone the runtime does not know
 */
export function zoneOf(zone: string): string {
  const name = zone === "" ? "UTC" : zone;
  if (!isKnownTimeZone(name))
    throw invalidField("timezone", `unknown time zone "${zone}" (an IANA name such as Europe/Paris)`);
  return name;
}

/**
 * The instant of `text` (YYYY-MM-DDTHH:MM[:SS[.fraction]], `T` or a space between date and time):
 * the wall-clock time in `zone`, or, when the text ends with an offset (Z, +02:00), that instant.
 * A time skipped by a daylight-saving jump is the instant just after it; a repeated one its first
 * occurrence (config/conditions/zones.ts).
 * @throws InvalidArgumentError naming `field` for a text that is not such a date-time
 */
export function parseWallClock(text: string, zone: string, field: string): Date {
  const m = WALL_CLOCK.exec(text);
  const bad = () => invalidField(field, `"${text}" is not an ISO 8601 date-time such as 2024-06-19T08:00:00`);
  if (!m) throw bad();
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const ms = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59)
    throw bad();
  if (m[8] !== undefined) {
    const offset = m[8] === "Z" ? 0 : offsetMinutes(m[8]);
    return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) - offset * 60_000);
  }
  return new Date(zonedToUtc({ year, month, day, hour, minute }, zone).getTime() + second * 1000 + ms);
}

function offsetMinutes(offset: string): number {
  const digits = offset.slice(1).replace(":", "");
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2));
  return offset[0] === "-" ? -minutes : minutes;
}

/** How `instant` reads in `zone`, as YYYY-MM-DDTHH:MM:SS (no offset). */
export function formatWallClock(instant: Date, zone: string): string {
  const w = wallClock(instant, zone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
}
