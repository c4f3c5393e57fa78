/** Public surface of services/activity-log. */
export {
  createClickHouseClient,
  insertRaw,
  type ClickHouseClient,
  type ClickHouseTarget,
} from "./clickhouse-client.js";
export { migrateClickHouse } from "./clickhouse-migrations.js";
export { EMBEDDED_THREAD_NICE, threadPriorities } from "./embedded-threads.js";
export {
  batchPullOf,
  checkEvent,
  internalEventRow,
  RECEIVED_AT_RANGE,
  toEventRow,
  type EventInput,
} from "./event-row.js";
export { canonicalEventType, EVENT_TYPE_ALIASES, EVENT_TYPES } from "./event-types.js";
export { clickHouseTime, createEventSink } from "./event-store.js";
export { outcomeOf, OUTCOME_RULES, type Outcome } from "./outcome.js";
export { createActivityLogService, type ActivityLogDeps } from "./activity-log-service.js";
export { serveClickHouseHttp } from "./clickhouse-http-server.js";
export {
  readLogFilters,
  readLogWindow,
  DEFAULT_WINDOW_MS,
  type LogFilters,
  type LogWindow,
  type SetFilter,
} from "./log-filters.js";
export { linkHeader, type PageCursors } from "./log-links.js";
export { createCursorCodec, type CursorCodec, type CursorState, type LogPosition } from "./log-cursor.js";
export { readLogPage, type LogEvent } from "./log-page.js";
export { createLogPageCache, type LogPageCache } from "./page-cache.js";
export { aggregateLogs, FACET_LIMIT, type FacetCount, type LogAggregate } from "./log-aggregate.js";
export {
  histogramLayout,
  INTERVAL_LADDER_SECONDS,
  MAX_BUCKETS,
  BUCKET_ORIGIN_MS,
  type HistogramLayout,
} from "./histogram.js";
export { DEFAULT_PER_PAGE, MAX_PER_PAGE, listLogsHandler, type LogReadDeps } from "./list-logs.js";
export { LOG_LAG_HEADER, LOG_READ_TIMEOUT_MS } from "./log-lag.js";
export { aggregateLogsHandler } from "./aggregate-logs.js";
export { MAX_EVENTS_PER_REQUEST } from "./append-events.js";
export { parseEventLine } from "./event-lines.js";
export { clusterLayout } from "./cluster-layout.js";
export { readTrafficSample } from "./observed-traffic.js";
export { readRecordedTraffic, type TrafficWindow } from "./traffic-reader.js";
export { trafficFigures, type RecordedArrival, type RecordedTraffic } from "./traffic-figures.js";
