/**
 * The log events of scheduled freezes (docs/events.md "Event types": scheduled_freeze.create
 * / update / delete with FreezeAttrs and the Actor who did it; docs/scheduled-freeze.md). API
 * actions carry the trigger "API"; times are RFC 3339 in UTC.
 */
import type { ActorInfo } from "../auth/index.js";
import { internalEventRow } from "../activity-log/index.js";
import type { EventRow, FreezeAttributes } from "../store/index.js";

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

/** FreezeAttrs JSON (docs/events.md "Shared structures"). */
export function freezeAttrsJson(f: FreezeAttributes): Record<string, unknown> {
  return {
    reason: f.reason,
    start: f.start.toISOString(),
    end: f.end?.toISOString() ?? null,
    timezone: f.timezone,
    matching_conditions: f.matchingConditions,
    exclude_conditions: f.excludeConditions,
  };
}

/** scheduled_freeze.create, at `at` (the stored created_at). */
export function freezeCreateEvent(repository: string, f: FreezeAttributes, actor: ActorInfo, at: Date): EventRow {
  return row(repository, "scheduled_freeze.create", {
    scheduled_freeze_attributes: freezeAttrsJson(f),
    created_by: actorJson(actor),
    created_at: at.toISOString(),
    created_by_staff: false,
  });
}

/** scheduled_freeze.update, with the attributes before and after. */
export function freezeUpdateEvent(
  repository: string,
  before: FreezeAttributes,
  after: FreezeAttributes,
  actor: ActorInfo,
  at: Date,
): EventRow {
  return row(repository, "scheduled_freeze.update", {
    scheduled_freeze_attributes_before: freezeAttrsJson(before),
    scheduled_freeze_attributes_after: freezeAttrsJson(after),
    updated_by: actorJson(actor),
    updated_at: at.toISOString(),
    updated_by_staff: false,
  });
}

/** scheduled_freeze.delete, with the deletion's reason. */
export function freezeDeleteEvent(
  repository: string,
  f: FreezeAttributes,
  reason: string,
  actor: ActorInfo,
  at: Date,
): EventRow {
  return row(repository, "scheduled_freeze.delete", {
    scheduled_freeze_attributes: freezeAttrsJson(f),
    reason,
    deleted_by: actorJson(actor),
    deleted_at: at.toISOString(),
    deleted_by_staff: false,
  });
}
