/**
 * The filters of `/logs` and `/logs/aggregate` (docs/activity-log.md
 * "Filters"), read from a ListLogs or AggregateLogs request into one normalised shape: every list
 * de-duplicated and sorted, event type aliases resolved, outcomes as their names. The same shape
 * drives the SQL (log-sql.ts), the cursor binding (log-cursor.ts) and the `Link` URLs (log-links.ts).
 * Refusals are INVALID_ARGUMENT (REST 422) naming the parameter.
 */
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { Outcome as OutcomeEnum } from "../../gen/yardmaster/v1/events_pb.js";
import { invalidField, TIMESTAMP_RANGE_MS } from "../contracts/index.js";
import { canonicalEventType } from "./event-types.js";
import type { Outcome } from "./outcome.js";

/** Keep only rows whose value is in `values` ("include"), or only rows whose value is not ("exclude"). */
export interface SetFilter<T> {
  mode: "include" | "exclude";
  values: T[];
}

/** The filters of a log request, normalised. Absent filters are undefined. */
export interface LogFilters {
  /** "owner/repository", exactly as the path gives it. */
  repository: string;
  pullRequest?: SetFilter<bigint>;
  /** 1-255 characters (checked by the request's FieldRule). */
  baseRef?: string;
  batchPull?: SetFilter<bigint>;
  /** Canonical type names (the deprecated alias resolved). */
  eventType?: SetFilter<string>;
  outcome?: SetFilter<Outcome>;
  trigger?: SetFilter<string>;
}

/** A time window in UTC milliseconds: `fromMs` inclusive, `toMs` exclusive. */
export interface LogWindow {
  fromMs: number;
  toMs: number;
}

/** The request fields both log RPCs share (ListLogsRequest, AggregateLogsRequest). */
export interface LogFilterRequest {
  owner: string;
  repository: string;
  pullRequest: bigint[];
  notPullRequest: bigint[];
  baseRef?: string;
  batchPull: bigint[];
  notBatchPull: bigint[];
  eventType: string[];
  notEventType: string[];
  outcome: OutcomeEnum[];
  notOutcome: OutcomeEnum[];
  trigger: string[];
  notTrigger: string[];
  receivedFrom?: Timestamp;
  receivedTo?: Timestamp;
}

/** Default window length: one day before `received_to` (docs/api.md "Limits"). */
export const DEFAULT_WINDOW_MS = 86_400_000;
const MAX_INT64 = 2n ** 63n - 1n;
const OUTCOME_NAMES: Record<number, Outcome> = {
  [OutcomeEnum.success]: "success",
  [OutcomeEnum.failure]: "failure",
  [OutcomeEnum.pending]: "pending",
  [OutcomeEnum.neutral]: "neutral",
};

function pair<T>(include: T[], exclude: T[], includeName: string, excludeName: string): SetFilter<T> | undefined {
  if (include.length > 0 && exclude.length > 0)
    throw invalidField(excludeName, `cannot be combined with ${includeName} (the two are mutually exclusive)`);
  if (include.length > 0) return { mode: "include", values: include };
  if (exclude.length > 0) return { mode: "exclude", values: exclude };
  return undefined;
}

const sortedUnique = <T extends bigint | string>(xs: T[]): T[] =>
  [...new Set(xs)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

function numbers(xs: bigint[], name: string): bigint[] {
  for (const x of xs)
    if (x < 0n || x > MAX_INT64) throw invalidField(name, `must be an integer between 0 and ${MAX_INT64}`);
  return sortedUnique(xs);
}

function eventTypes(xs: string[], name: string): string[] {
  return sortedUnique(
    xs.map((x) => {
      const t = canonicalEventType(x);
      if (!t) throw invalidField(name, `unknown event type "${x}"`);
      return t;
    }),
  );
}

function outcomes(xs: OutcomeEnum[], name: string): Outcome[] {
  return sortedUnique(
    xs.map((x) => {
      const o = OUTCOME_NAMES[x];
      if (!o) throw invalidField(name, "must be one of success, failure, pending, neutral");
      return o;
    }),
  );
}

/**
 * Reads and checks the filters of a request (docs/activity-log.md "Filters").
 * @throws InvalidArgumentError naming the parameter: two mutually exclusive filters (names the
 *   `not_` one), an unknown event type, an unspecified outcome, a negative number
 */
export function readLogFilters(req: LogFilterRequest): LogFilters {
  const f: LogFilters = { repository: `${req.owner}/${req.repository}` };
  const pr = pair(
    numbers(req.pullRequest, "pull_request"),
    numbers(req.notPullRequest, "not_pull_request"),
    "pull_request",
    "not_pull_request",
  );
  const bp = pair(
    numbers(req.batchPull, "batch_pull"),
    numbers(req.notBatchPull, "not_batch_pull"),
    "batch_pull",
    "not_batch_pull",
  );
  const type = pair(
    eventTypes(req.eventType, "event_type"),
    eventTypes(req.notEventType, "not_event_type"),
    "event_type",
    "not_event_type",
  );
  const outcome = pair(
    outcomes(req.outcome, "outcome"),
    outcomes(req.notOutcome, "not_outcome"),
    "outcome",
    "not_outcome",
  );
  const trigger = pair(sortedUnique(req.trigger), sortedUnique(req.notTrigger), "trigger", "not_trigger");
  if (pr) f.pullRequest = pr;
  if (req.baseRef !== undefined) f.baseRef = req.baseRef;
  if (bp) f.batchPull = bp;
  if (type) f.eventType = type;
  if (outcome) f.outcome = outcome;
  if (trigger) f.trigger = trigger;
  return f;
}

/**
 * A Timestamp as UTC milliseconds, rounded up: an event stored at millisecond t is at or after the
 * instant x exactly when t >= ceil(x), so inclusive and exclusive bounds stay exact.
 */
export function ceilMs(ts: Timestamp): number {
  const ms = Number(ts.seconds) * 1000 + Math.floor(ts.nanos / 1_000_000);
  return ts.nanos % 1_000_000 === 0 ? ms : ms + 1;
}

/**
 * The time window of a request: `received_to` (exclusive) defaults to `now`, `received_from`
 * (inclusive) to one day before `received_to` (docs/api.md "Limits"; docs/activity-log.md "Filters").
 * @param now the current time (injected)
 * @throws InvalidArgumentError ("received_from") when the start is after the end
 */
export function readLogWindow(req: Pick<LogFilterRequest, "receivedFrom" | "receivedTo">, now: Date): LogWindow {
  const toMs = req.receivedTo ? ceilMs(req.receivedTo) : now.getTime();
  // The default start never falls before the first instant a Timestamp holds (0001-01-01).
  const fromMs = req.receivedFrom
    ? ceilMs(req.receivedFrom)
    : Math.max(toMs - DEFAULT_WINDOW_MS, TIMESTAMP_RANGE_MS[0]);
  if (fromMs > toMs) throw invalidField("received_from", "must not be after received_to");
  return { fromMs, toMs };
}
