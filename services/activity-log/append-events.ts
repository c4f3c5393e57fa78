/**
 * AppendEvents (internal, admin key only): records events of producers outside the queue
 * (workflow automation, CI insights, merge protections) and `yardmaster events import`.
 * Every event is validated before anything is written; one bad event refuses the whole request
 * with INVALID_ARGUMENT naming each event index and field. Ids come from the service's sequence.
 * A request repeated with the same idempotency_key (and the same events) writes nothing and gets
 * the first delivery's ids; the same key with other events is ALREADY_EXISTS (409).
 */
import { createHash } from "node:crypto";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { AppendEventsRequest, AppendEventsResponseSchema } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { DomainError, InvalidArgumentError, type FieldViolation } from "../contracts/index.js";
import { deliverEvents, type Pool } from "../store/index.js";
import { checkEvent, toEventRow, type EventInput } from "./event-row.js";

/** At most this many events per request. */
export const MAX_EVENTS_PER_REQUEST = 10_000;

/** AppendEvents' dependencies: the PostgreSQL pool (outbox, deliveries) and a kick for the relay after a write. */
export interface AppendDeps {
  db: Pool;
  eventsWritten: () => void;
}

/**
 * The AppendEvents handler.
 * @throws InvalidArgumentError naming each event index and field (nothing written); DomainError
 *   ALREADY_EXISTS when the idempotency key was used for other events
 */
export function appendEventsHandler(deps: AppendDeps) {
  return async (req: AppendEventsRequest): Promise<MessageInitShape<typeof AppendEventsResponseSchema>> => {
    if (req.events.length === 0 || req.events.length > MAX_EVENTS_PER_REQUEST) {
      throw new InvalidArgumentError([
        { field: "events", description: `must hold 1 to ${MAX_EVENTS_PER_REQUEST} events` },
      ]);
    }
    const inputs: EventInput[] = req.events.map((e) => ({
      type: e.type,
      repository: e.repository,
      pullRequest: e.pullRequest ?? null,
      baseRef: e.baseRef ?? null,
      trigger: e.trigger,
      receivedAt: e.receivedAt ? timestampDate(e.receivedAt) : null,
      metadata: (e.metadata ?? {}) as Record<string, unknown>,
    }));
    const violations: FieldViolation[] = inputs.flatMap((e, i) => checkEvent(e, `events[${i}]`));
    if (violations.length) throw new InvalidArgumentError(violations);
    const hash = createHash("sha256")
      .update(JSON.stringify(inputs, (_k, v) => (typeof v === "bigint" ? v.toString() : v)))
      .digest();
    const result = await deliverEvents(deps.db, req.idempotencyKey, hash, inputs.map(toEventRow));
    if (result.kind === "key_reused") {
      throw new DomainError(
        "already_exists",
        `idempotency_key "${req.idempotencyKey}" was already used for other events`,
      );
    }
    if (result.kind === "written") deps.eventsWritten();
    return { ids: result.ids.map(BigInt), replayed: result.kind === "replayed" };
  };
}
