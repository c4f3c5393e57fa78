/**
 * The ActivityLogService implementation (proto/yardmaster/v1/activity_log.proto): AppendEvents
 * writes through the outbox; ListLogs and AggregateLogs read ClickHouse (log-queries.ts, when
 * present). Until the log queries land they answer UNIMPLEMENTED.
 */
import type { ServiceImpl } from "@connectrpc/connect";
import type { ActivityLogService } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { appendEventsHandler, type AppendDeps } from "./append-events.js";

export type ActivityLogDeps = AppendDeps;

/** Builds the ActivityLogService implementation. */
export function createActivityLogService(deps: ActivityLogDeps): Partial<ServiceImpl<typeof ActivityLogService>> {
  return {
    appendEvents: appendEventsHandler(deps),
  };
}
