/**
 * `mergify freeze list|create|update|delete`: paths, payloads and the `ScheduledFreeze` struct,
 * translated from SOURCES.freezeCommon, freezeCreate, freezeUpdate, freezeDelete, freezeList
 * (crates/mergify-freeze/src/*.rs) and the TypedDicts of SOURCES.pyFreezeApi
 * (mergify_cli/freeze/api.py at 0fa9eee7).
 */
import { z } from "zod";
import { opt, vec } from "./serde.js";

export const freezesPath = (repo: string) => `/v1/repos/${repo}/scheduled_freeze`;
export const freezePath = (repo: string, id: string) => `/v1/repos/${repo}/scheduled_freeze/${id}`;
export const freezeDeletePath = (repo: string, id: string) => `/v1/repos/${repo}/scheduled_freeze/${id}/delete`;

/** common.rs `ScheduledFreeze`: every field optional for serde. */
export const ScheduledFreeze = z.object({
  id: opt(z.string()),
  reason: opt(z.string()),
  start: opt(z.string()),
  end: opt(z.string()),
  timezone: opt(z.string()),
  matching_conditions: vec(z.string()),
  exclude_conditions: vec(z.string()),
});

/** api.py `ScheduledFreezeResponse`: id, reason, start, timezone, matching_conditions required; end str | None. */
export const PyScheduledFreezeResponse = z.object({
  id: z.string(),
  reason: z.string(),
  start: z.string(),
  end: z.string().nullable(),
  timezone: z.string(),
  matching_conditions: z.array(z.string()),
  exclude_conditions: z.array(z.string()).optional(),
});

/** list.rs: GET answers `{"scheduled_freezes": [ScheduledFreeze]}` (a missing key reads as []). */
export const FreezeList = z.object({ scheduled_freezes: z.array(ScheduledFreeze).optional() });

/** `NaiveDateTimeWire::iso`: seconds precision, no offset. */
const iso = (d: string) => d.slice(0, 19);

/**
 * create.rs `CreatePayload`: reason, start, end (null when not given), timezone always sent; the
 * condition lists only when non-empty.
 */
export function createPayload(o: {
  reason: string;
  timezone: string;
  start?: string;
  end?: string;
  matching?: string[];
  exclude?: string[];
}) {
  return {
    reason: o.reason,
    start: o.start === undefined ? null : iso(o.start),
    end: o.end === undefined ? null : iso(o.end),
    timezone: o.timezone,
    ...(o.matching?.length ? { matching_conditions: o.matching } : {}),
    ...(o.exclude?.length ? { exclude_conditions: o.exclude } : {}),
  };
}

/** update.rs `UpdatePayload`: only the fields given (an empty list is sent: it clears). */
export function updatePayload(o: {
  reason?: string;
  timezone?: string;
  start?: string;
  end?: string;
  matching?: string[];
  exclude?: string[];
}) {
  return {
    ...(o.reason === undefined ? {} : { reason: o.reason }),
    ...(o.timezone === undefined ? {} : { timezone: o.timezone }),
    ...(o.start === undefined ? {} : { start: iso(o.start) }),
    ...(o.end === undefined ? {} : { end: iso(o.end) }),
    ...(o.matching === undefined ? {} : { matching_conditions: o.matching }),
    ...(o.exclude === undefined ? {} : { exclude_conditions: o.exclude }),
  };
}

/** delete.rs `DeletePayload`: `{}` or `{"delete_reason": ...}`; any 2xx succeeds (`post_no_response`). */
export const deletePayload = (reason?: string) => (reason === undefined ? {} : { delete_reason: reason });
