/**
 * The ActivityLogService implementation (proto/yardmaster/v1/activity_log.proto): AppendEvents
 * writes through the PostgreSQL outbox (append-events.ts); ListLogs and AggregateLogs read
 * ClickHouse (list-logs.ts, aggregate-logs.ts), and so does GetQueueStatistics
 * (queue-statistics-handler.ts). Decisions: docs/activity-log.md.
 */
import type { ServiceImpl } from "@connectrpc/connect";
import type { ActivityLogService } from "../../gen/yardmaster/v1/activity_log_pb.js";
import type { ClickHouseClient } from "@clickhouse/client";
import { aggregateLogsHandler } from "./aggregate-logs.js";
import { appendEventsHandler, type AppendDeps } from "./append-events.js";
import { listLogsHandler } from "./list-logs.js";
import { queueStatisticsHandler } from "./queue-statistics-handler.js";
import { createCursorCodec } from "./log-cursor.js";
import type { LogPageCache } from "./page-cache.js";
import { settledWindowEnds } from "./settled-time.js";
import { oldestOutboxAgeSeconds, type ChangeFeed } from "../store/index.js";
import type { LiveRegistry } from "../live/index.js";
import { createTailCursorCodec } from "./watch-cursor.js";
import { watchLogsHandler } from "./watch-logs.js";

/** The service's dependencies: the PostgreSQL pool and relay kick of AppendEvents, and the log reads' own. */
export interface ActivityLogDeps extends AppendDeps {
  clickhouse: ClickHouseClient;
  /**
   * Keying material of the `/logs` cursor signatures (an HMAC key is derived from it with HKDF).
   * The server passes the admin key, so cursors stay valid across restarts.
   */
  cursorSecret: string | Uint8Array;
  /** The current time (UTC); defaults to the system clock. */
  now?: () => Date;
  /** Deadline of a log read's ClickHouse query, ms (default log-lag.ts LOG_READ_TIMEOUT_MS). */
  readTimeoutMs?: number;
  /** The `/logs` answer cache (embedded engine only: page-cache.ts); none by default. */
  pages?: LogPageCache;
  /** The live streams' registry and change feed; without them WatchLogs is not served. */
  live?: { registry: LiveRegistry; feed: ChangeFeed };
}

type Impl = ServiceImpl<typeof ActivityLogService>;

/** Builds the ActivityLogService implementation (WatchLogs only with `deps.live`). */
export function createActivityLogService(
  deps: ActivityLogDeps,
): Omit<Impl, "watchLogs"> & Partial<Pick<Impl, "watchLogs">> {
  const settled = settledWindowEnds(deps.db);
  const read = {
    clickhouse: deps.clickhouse,
    cursors: createCursorCodec(deps.cursorSecret),
    now: deps.now ?? (() => new Date()),
    windowEnd: (now: Date) => settled(now.getTime()),
    readTimeoutMs: deps.readTimeoutMs,
    lagSeconds: () => oldestOutboxAgeSeconds(deps.db),
    pages: deps.pages,
  };
  return {
    appendEvents: appendEventsHandler(deps),
    listLogs: listLogsHandler(read),
    aggregateLogs: aggregateLogsHandler(read),
    getQueueStatistics: queueStatisticsHandler(read),
    ...(deps.live && {
      watchLogs: watchLogsHandler({
        ...read,
        ...deps.live,
        cursors: createTailCursorCodec(deps.cursorSecret),
        settledEnd: read.windowEnd,
      }),
    }),
  };
}
