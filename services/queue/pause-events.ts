/**
 * The log events of pausing (docs/activity-log.md "Ingest": queue.pause.create / update / delete,
 * with the Actor who did it). API actions carry the trigger "API"; the actor is in the metadata.
 */
import type { ActorInfo } from "../auth/index.js";
import { internalEventRow } from "../activity-log/index.js";
import type { EventRow } from "../store/index.js";

const TRIGGER = "API";

function row(repository: string, type: string, metadata: Record<string, unknown>): EventRow {
  return internalEventRow({
    type,
    repository,
    pullRequest: null,
    baseRef: null,
    trigger: TRIGGER,
    receivedAt: null,
    metadata,
  });
}

const actorJson = (a: ActorInfo) => ({ type: a.type, id: a.id, name: a.name });

/** queue.pause.create (a new pause) or queue.pause.update (PUT while paused: the reason changed). */
export function pauseEvent(repository: string, kind: "create" | "update", reason: string, actor: ActorInfo): EventRow {
  return kind === "create"
    ? row(repository, "queue.pause.create", { reason, created_by: actorJson(actor), created_by_staff: false })
    : row(repository, "queue.pause.update", { reason, updated_by: actorJson(actor), updated_by_staff: false });
}

/** queue.pause.delete. */
export function unpauseEvent(repository: string, actor: ActorInfo): EventRow {
  return row(repository, "queue.pause.delete", { deleted_by: actorJson(actor), deleted_by_staff: false });
}
