/**
 * The activity log in the running service (docs/activity-log.md): its ClickHouse client and
 * migrations (with the cluster layout when `YARDMASTER_CLICKHOUSE_CLUSTER` is set), the outbox
 * relay that writes events to it (counting failed inserts for `/metrics`, waking the webhook
 * deliveries of each relayed batch), ActivityLogService, and CI Insights, which needs ClickHouse
 * and so runs with it (docs/ci-insights.md).
 */
import type { Logger } from "pino";
import { ActivityLogService } from "../../gen/yardmaster/v1/activity_log_pb.js";
import {
  clusterLayout,
  createActivityLogService,
  createClickHouseClient,
  createEventSink,
  createLogPageCache,
  migrateClickHouse,
  type ActivityLogDeps,
  type ClickHouseClient,
} from "../activity-log/index.js";
import type { ServiceBinding } from "../gateway/index.js";
import type { Metrics } from "../metrics/index.js";
import type { DeliveryLoop } from "../notifications/index.js";
import { startOutboxRelay, type Database, type EventSink } from "../store/index.js";
import { wireCiInsights, type CiInsightsWiring } from "./ci-insights-wiring.js";
import type { Settings } from "./settings.js";

/** What the rest of the process uses of the activity log. */
export interface ActivityLogWiring {
  clickhouse: ClickHouseClient;
  /** Wakes the relay: events were committed to the outbox. */
  eventsWritten: () => void;
  ciInsights: CiInsightsWiring;
}

/**
 * Opens ClickHouse, applies its migrations, starts the relay and binds ActivityLogService and
 * CiInsightsService. Each step's undoing is pushed on `cleanups` (the relay drains its outbox
 * before it stops).
 * @throws what opening or migrating ClickHouse throws (the start fails)
 */
export async function wireActivityLog(w: {
  settings: Settings;
  db: Database;
  admin: { key: string };
  live: ActivityLogDeps["live"];
  metrics: Metrics;
  deliveries: DeliveryLoop;
  logger: Logger;
  bindings: ServiceBinding[];
  cleanups: (() => Promise<void>)[];
}): Promise<ActivityLogWiring> {
  const { settings, db, logger, metrics, cleanups } = w;
  const clickhouse = createClickHouseClient(settings.clickhouse);
  cleanups.push(() => clickhouse.close());
  const chApplied = await migrateClickHouse(
    clickhouse,
    settings.clickhouseCluster ? clusterLayout(settings.clickhouseCluster) : undefined,
  );
  if (chApplied.length) logger.info({ migrations: chApplied }, "ClickHouse migrations applied");
  // The embedded engine is written only through this process's relay: its /logs answers can be
  // cached, the sink telling the cache what it stored (docs/reliability.md "Load").
  const pages = "embeddedPath" in settings.clickhouse ? createLogPageCache(clickhouse) : undefined;
  const sink = countingFailures(createEventSink(clickhouse, "events", pages?.sent), () => metrics.ingestFailed());
  const relay = startOutboxRelay({ pool: db.pool, sink, logger, onDeliveries: () => w.deliveries.kick() });
  cleanups.push(async () => {
    await relay.drain();
    await relay.stop();
  });
  const eventsWritten = () => relay.kick();
  const activityLog = createActivityLogService({
    db: db.api,
    eventsWritten,
    clickhouse,
    cursorSecret: w.admin.key,
    pages,
    live: w.live,
  });
  w.bindings.push({ service: ActivityLogService, impl: activityLog } as ServiceBinding);
  const ci = { db: db.pool, clickhouse, cluster: settings.clickhouseCluster, logger, eventsWritten, metrics };
  const ciInsights = await wireCiInsights(ci, w.bindings, cleanups);
  return { clickhouse, eventsWritten, ciInsights };
}

/** The sink, counting each insert that fails (yardmaster_clickhouse_ingest_errors_total). */
function countingFailures(sink: EventSink, failed: () => void): EventSink {
  return {
    insertEvents: (rows, opts) =>
      sink.insertEvents(rows, opts).catch((e: unknown) => {
        failed();
        throw e;
      }),
  };
}
