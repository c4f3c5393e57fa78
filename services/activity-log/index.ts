/** Public surface of services/activity-log. */
export { createClickHouseClient, type ClickHouseClient, type ClickHouseTarget } from "./clickhouse-client.js";
export { migrateClickHouse } from "./clickhouse-migrations.js";
export { batchPullOf, checkEvent, internalEventRow, toEventRow, type EventInput } from "./event-row.js";
export { canonicalEventType, EVENT_TYPE_ALIASES, EVENT_TYPES } from "./event-types.js";
export { clickHouseTime, createEventSink } from "./event-store.js";
export { outcomeOf, OUTCOME_RULES, type Outcome } from "./outcome.js";
export { createActivityLogService, type ActivityLogDeps } from "./activity-log-service.js";
export { serveClickHouseHttp } from "./clickhouse-http-server.js";
