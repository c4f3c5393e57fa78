/**
 * The 47 event types of the activity log and the metadata schema of each, read from
 * events.proto (every *Metadata message carries its type in the `event_type` option).
 * docs/events.md "Event types"; deprecated alias: `action.queue.checks_not_started` is read
 * as `action.queue.checks_postponed` in filters (docs/api.md "Versioning").
 */
import { getOption, hasOption, type DescMessage } from "@bufbuild/protobuf";
import { event_type } from "../../gen/yardmaster/v1/common_pb.js";
import { file_yardmaster_v1_events } from "../../gen/yardmaster/v1/events_pb.js";

/** Event type -> its metadata message. */
export const EVENT_TYPES: ReadonlyMap<string, DescMessage> = new Map(
  file_yardmaster_v1_events.messages.filter((m) => hasOption(m, event_type)).map((m) => [getOption(m, event_type), m]),
);

/** Deprecated type names accepted in filters, with the name they stand for. */
export const EVENT_TYPE_ALIASES: ReadonlyMap<string, string> = new Map([
  ["action.queue.checks_not_started", "action.queue.checks_postponed"],
]);

/** The canonical type for a name given in a filter (alias resolved); undefined when unknown. */
export function canonicalEventType(name: string): string | undefined {
  const t = EVENT_TYPE_ALIASES.get(name) ?? name;
  return EVENT_TYPES.has(t) ? t : undefined;
}
