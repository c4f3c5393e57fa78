/**
 * Valid metadata samples of the events of people and applications controlling the service:
 * commands, products enabled or disabled, queue pauses and scheduled freezes (docs/events.md
 * "Event types"). Each builder takes overrides.
 */
import {
  actor,
  applicationActor,
  AT,
  type Builder,
  commandAuthor,
  freezeAttrs,
  UUID_A,
} from "./event-samples-shared.js";

export const commandDequeueMetadata: Builder = (o) => ({
  author: commandAuthor(),
  comment_id: 991,
  session_id: null,
  command_trigger: "comment",
  trigger_comment_url: "https://forge.example/c/991",
  ...o,
});
export const commandQueueMetadata: Builder = (o) => ({
  author: commandAuthor({ avatar_url: null }),
  comment_id: 990,
  session_id: UUID_A,
  command_trigger: "checkbox",
  trigger_comment_url: null,
  ...o,
});
export const productDisabledMetadata: Builder = (o) => ({
  product: "merge_queue",
  disabled_by: actor(),
  disabled_at: AT,
  disabled_by_staff: false,
  ...o,
});
export const productEnabledMetadata: Builder = (o) => ({
  product: "ci_insights",
  enabled_by: actor(),
  enabled_at: AT,
  enabled_by_staff: true,
  ...o,
});
export const pauseCreateMetadata: Builder = (o) => ({
  reason: "release freeze",
  created_by: applicationActor(),
  created_by_staff: false,
  ...o,
});
export const pauseDeleteMetadata: Builder = (o) => ({ deleted_by: applicationActor(), deleted_by_staff: false, ...o });
export const pauseUpdateMetadata: Builder = (o) => ({
  reason: "still frozen",
  updated_by: actor(),
  updated_by_staff: false,
  ...o,
});
export const freezeCreateMetadata: Builder = (o) => ({
  scheduled_freeze_attributes: freezeAttrs(),
  created_by: actor(),
  created_at: AT,
  created_by_staff: false,
  ...o,
});
export const freezeDeleteMetadata: Builder = (o) => ({
  scheduled_freeze_attributes: freezeAttrs(),
  reason: "done",
  deleted_by: actor(),
  deleted_at: AT,
  deleted_by_staff: false,
  ...o,
});
export const freezeUpdateMetadata: Builder = (o) => ({
  scheduled_freeze_attributes_before: freezeAttrs(),
  scheduled_freeze_attributes_after: freezeAttrs({ end: "2026-11-23T10:00:00Z" }),
  updated_by: actor(),
  updated_at: AT,
  updated_by_staff: false,
  ...o,
});
