/**
 * Turns an event to record into an outbox row (store/outbox.ts): the type must be one of the 47,
 * the metadata must validate against its schema (events.proto, strict presence), the repository
 * must be "owner/name" within the path limits, `received_at` within RECEIVED_AT_RANGE, and the
 * deprecated `train_car_id` equal to `batch_id` (docs/activity-log.md "Ingest"); then the outcome and
 * the batch pull request number are derived. Problems are field violations named from `path` ("events[3].metadata.queue_name").
 */
import { checkJson, childPath, type FieldViolation } from "../contracts/index.js";
import type { EventRow } from "../store/index.js";
import { EVENT_TYPES } from "./event-types.js";
import { outcomeOf } from "./outcome.js";

/** An event as producers give it (engine, pause, AppendEvents). */
export interface EventInput {
  type: string;
  /** "owner/name". */
  repository: string;
  pullRequest: bigint | number | null;
  baseRef: string | null;
  trigger: string;
  /** UTC; null = when stored. */
  receivedAt: Date | null;
  metadata: Record<string, unknown>;
}

/** Received times accepted on ingest (UTC ms, end exclusive): what ClickHouse's DateTime64(3) holds, with room to spare. */
export const RECEIVED_AT_RANGE = { fromMs: Date.UTC(1900, 0, 1), toMs: Date.UTC(2299, 0, 1) } as const;

const REPOSITORY = /^[a-zA-Z0-9-]{1,40}\/[\w.-]{1,100}$/;

/** Types whose batch pull request is the speculative check pull request of the attempt. */
const CHECK_TYPES = new Set(["action.queue.checks_start", "action.queue.checks_end"]);
/** Types whose batch pull request is recorded by the engine in `batch_pull_request`. */
const BISECTION_TYPES = new Set(["action.queue.batch_bisection_start", "action.queue.batch_bisection_end"]);

/**
 * The batch pull request number of an event (docs/activity-log.md "Batch pull request numbers"), or
 * null: checks_start/checks_end use speculative_check_pull_request.number; bisection events their `batch_pull_request`.
 */
// biome-ignore lint/suspicious/noExplicitAny: event metadata is a JSON object whose shape depends on the event type
export function batchPullOf(type: string, metadata: Record<string, any>): string | null {
  const n = CHECK_TYPES.has(type)
    ? metadata.speculative_check_pull_request?.number
    : BISECTION_TYPES.has(type)
      ? metadata.batch_pull_request
      : undefined;
  return n === undefined || n === null ? null : String(n);
}

/** Validates an event; returns its violations (empty when it can be stored). */
export function checkEvent(e: EventInput, path: string): FieldViolation[] {
  const out: FieldViolation[] = [];
  const schema = EVENT_TYPES.get(e.type);
  if (!schema) out.push({ field: childPath(path, "type"), description: `unknown event type "${e.type}"` });
  if (!REPOSITORY.test(e.repository))
    out.push({
      field: childPath(path, "repository"),
      description:
        'must be "owner/repository" (owner: 1-40 letters, digits or hyphens; repository: 1-100 letters, digits, "_", "." or "-")',
    });
  if (e.pullRequest !== null && (BigInt(e.pullRequest) < 0n || BigInt(e.pullRequest) > 2n ** 63n - 1n)) {
    out.push({ field: childPath(path, "pull_request"), description: "must be between 0 and 9223372036854775807" });
  }
  if (e.baseRef !== null && (e.baseRef.length < 1 || e.baseRef.length > 255))
    out.push({ field: childPath(path, "base_ref"), description: "must be 1 to 255 characters long" });
  if (e.trigger.length === 0) out.push({ field: childPath(path, "trigger"), description: "is required" });
  if (
    e.receivedAt !== null &&
    !(e.receivedAt.getTime() >= RECEIVED_AT_RANGE.fromMs && e.receivedAt.getTime() < RECEIVED_AT_RANGE.toMs)
  ) {
    out.push({
      field: childPath(path, "received_at"),
      description: "must be between 1900-01-01T00:00:00Z and 2299-01-01T00:00:00Z",
    });
  }
  if (schema) {
    const metadata = checkJson(schema, e.metadata, "strict", childPath(path, "metadata"));
    out.push(...metadata);
    // The deprecated train_car_id is the same value as batch_id (docs/api.md "Versioning").
    if (metadata.length === 0 && "train_car_id" in e.metadata && e.metadata.train_car_id !== e.metadata.batch_id) {
      out.push({
        field: childPath(path, "metadata.train_car_id"),
        description: "must equal batch_id (deprecated alias of it)",
      });
    }
  }
  return out;
}

/** The outbox row of a valid event (call {@link checkEvent} first). */
export function toEventRow(e: EventInput): EventRow {
  return {
    receivedAt: e.receivedAt,
    repository: e.repository,
    trigger: e.trigger,
    pullRequest: e.pullRequest === null ? null : String(e.pullRequest),
    baseRef: e.baseRef,
    outcome: outcomeOf(e.type, e.metadata),
    type: e.type,
    batchPull: batchPullOf(e.type, e.metadata),
    metadata: JSON.stringify(e.metadata),
  };
}

/**
 * The outbox row of an event produced inside the service (engine, pause, commands). Such events
 * must always validate; a violation is a programming error and throws (the transaction writing
 * it rolls back, so state and log never disagree).
 * @throws Error listing the violations
 */
export function internalEventRow(e: EventInput): EventRow {
  const violations = checkEvent(e, "event");
  if (violations.length)
    throw new Error(`invalid ${e.type} event: ${violations.map((v) => `${v.field}: ${v.description}`).join("; ")}`);
  return toEventRow(e);
}
