/**
 * `mergify config simulate` (SOURCES.configSimulate, crates/mergify-config/src/simulate.rs at
 * 043f6f2d) and `mergify events` / `queue history` (SOURCES.eventsClient, eventsEvent,
 * queueHistory): the requests they build and the structs they decode.
 */
import { z } from "zod";
import { opt, u64, vec } from "./serde.js";

/** simulate.rs: POST /v1/repos/<repo>/pulls/<n>/simulator with `SimulatorRequest {mergify_yml}`. */
export const simulatorPath = (repo: string, n: number) => `/v1/repos/${repo}/pulls/${n}/simulator`;
export const simulatorRequest = (text: string) => ({ mergify_yml: text });
/** simulate.rs `SimulatorResponse`; a 422 is reported as a configuration error. */
export const SimulatorResponse = z.object({ title: z.string(), summary: z.string() });

/** client.rs `fetch`: GET /v1/repos/<repo>/logs, the same query on every page plus the next `cursor`. */
export const logsPath = (repo: string) => `/v1/repos/${repo}/logs`;
export function logsQuery(o: {
  pullRequest?: number;
  eventTypes?: string[];
  from: Date;
  to: Date;
  perPage: number;
}): [string, string][] {
  // chrono's `to_rfc3339()`: nanoseconds and a +00:00 offset, e.g. 2026-07-23T00:00:00.123456789+00:00.
  const rfc3339 = (d: Date) => d.toISOString().replace(/\.(\d{3})Z$/, ".$1000000+00:00");
  return [
    ...(o.pullRequest === undefined ? [] : ([["pull_request", String(o.pullRequest)]] as [string, string][])),
    ...(o.eventTypes ?? []).map((t) => ["event_type", t] as [string, string]),
    ["received_from", rfc3339(o.from)],
    ["received_to", rfc3339(o.to)],
    ["per_page", String(o.perPage)],
  ];
}

/**
 * client.rs `EventsResponse` with event.rs `Envelope`, and history.rs `RawEvent`, the stricter of
 * the two: `id` (i64), `received_at` and `type` required, `trigger` a `#[serde(default)] String`
 * (missing is fine, null is not), `outcome` and `metadata` optional.
 */
export const EventsResponse = z.object({
  events: vec(
    z.object({
      id: z.number().int(),
      type: z.string(),
      received_at: z.string(),
      trigger: z.string().optional(),
      outcome: opt(z.string()),
      pull_request: opt(u64),
    }),
  ),
});
