/**
 * Starts Yardmaster (docs/deployment.md "The operational contract"): by default every service in
 * one process on embedded defaults — PostgreSQL (URL or embedded) with migrations, ClickHouse (URL
 * or embedded chdb) with migrations, the outbox relay, the forge (local or GitHub), the queue runner, every service on
 * one port (REST, Connect, gRPC, gRPC-Web) — or, with `--only`, some of them, the others reached
 * at their URLs (docs/deployment.md); a clean shutdown in reverse order.
 */
import { mkdir } from "node:fs/promises";
import type { DescService } from "@bufbuild/protobuf";
import type { Logger } from "pino";
import { ActivityLogService } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { ProductService, TokenService } from "../../gen/yardmaster/v1/admin_pb.js";
import { QueueService } from "../../gen/yardmaster/v1/queue_pb.js";
import { SimulatorService } from "../../gen/yardmaster/v1/simulator_pb.js";
import {
  clusterLayout,
  createActivityLogService,
  createClickHouseClient,
  createEventSink,
  createLogPageCache,
  migrateClickHouse,
  readTrafficSample,
  type ClickHouseClient,
} from "../activity-log/index.js";
import { createProductService, createTokenService } from "../admin/index.js";
import { registerDashboard } from "../dashboard/index.js";
import { createAuthorizer, type PlatformTokenVerifier } from "../auth/index.js";
import { buildApp, type App, type ServiceBinding } from "../gateway/index.js";
import { LiveRegistry } from "../live/index.js";
import { createMetrics } from "../metrics/index.js";
import { closeSharedPool } from "../offload/index.js";
import { createSimulatorService } from "../simulator/index.js";
import {
  findToken,
  insertToken,
  listTokens,
  migrate,
  openDatabase,
  outboxLag,
  revokeToken,
  startChangeFeed,
  startOutboxRelay,
  type Database,
  type EventSink,
} from "../store/index.js";
import { loadOrCreateAdminKey } from "./admin-key.js";
import { bannerLines } from "./banner.js";
import { wireCiInsights, type CiInsightsWiring } from "./ci-insights-wiring.js";
import { githubTokenVerifier, wireForge } from "./forge-wiring.js";
import { wireQueue } from "./queue-wiring.js";
import { createStartLogger } from "./logger.js";
import { createReadiness } from "./readiness.js";
import { remoteServiceImpl } from "./remote-service.js";
import { SERVICE_NAMES, SettingsError, type ServiceName, type Settings } from "./settings.js";

/** The service each name of `--only` stands for. */
const SERVICES: Record<ServiceName, DescService> = {
  queue: QueueService,
  simulator: SimulatorService,
  "activity-log": ActivityLogService,
};

/**
 * A started server ({@link startServer}): the listening app, its admin key, database and logger;
 * `close` shuts everything down in reverse start order.
 */
export interface RunningServer {
  app: App;
  /** The port actually listened on (useful with PORT=0). */
  port: number;
  adminKey: string;
  db: Database;
  /** The services this process runs itself. */
  services: ReadonlySet<ServiceName>;
  logger: Logger;
  close(): Promise<void>;
}

/**
 * Which services run here, and which are reached at a URL (docs/deployment.md).
 * @throws SettingsError for an unknown name, or when FORGE=local would split the queue from the
 *   simulator (the local forge's repositories live in one process's data directory)
 */
export function servicesToRun(settings: Settings, only?: readonly string[]): ReadonlySet<ServiceName> {
  const names = only === undefined || only.length === 0 ? [...SERVICE_NAMES] : only;
  const unknown = names.filter((n) => !(SERVICE_NAMES as readonly string[]).includes(n));
  if (unknown.length)
    throw new SettingsError(
      `--only: unknown service ${unknown.map((n) => `"${n}"`).join(", ")}; services: ${SERVICE_NAMES.join(", ")}`,
    );
  const set = new Set(names as ServiceName[]);
  if (settings.forge === "local" && set.has("queue") !== set.has("simulator")) {
    throw new SettingsError(
      "--only: with FORGE=local the queue and the simulator run in the same process (the local forge keeps its repositories in that process's data directory)",
    );
  }
  return set;
}

/**
 * Starts the services of `only` (default: all; `yardmaster serve --only`) and listens. A service
 * not run here is forwarded to its URL (YARDMASTER_QUEUE_URL, YARDMASTER_SIMULATOR_URL,
 * YARDMASTER_ACTIVITY_LOG_URL) or not served. Only what the services run here need is started:
 * ClickHouse and the outbox relay with the activity log; the forge with the queue or the
 * simulator; the queue runner with the queue. PostgreSQL (tokens, pause, outbox) always.
 * @param onBanner receives the human-readable start lines (URL, admin key)
 * @throws when a database cannot start, a migration fails or a setting is missing (nothing is left running)
 */
export async function startServer(
  settings: Settings,
  onBanner: (line: string) => void = () => {},
  only?: readonly string[],
): Promise<RunningServer> {
  const services = servicesToRun(settings, only);
  const { logger, release } = createStartLogger(settings.logLevel, settings.logFormat);
  await mkdir(settings.dataDir, { recursive: true });
  const admin = await loadOrCreateAdminKey(settings.dataDir, settings.adminKey);
  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async () => {
    for (const c of cleanups.reverse()) await c().catch((e) => logger.warn({ err: e }, "shutdown step failed"));
  };
  // The worker threads (started by the first large configuration text or body), stopped last.
  cleanups.push(() => closeSharedPool());
  try {
    const db = await openDatabase({
      url: settings.databaseUrl,
      dataDir: settings.dataDir,
      onLog: (l) => logger.debug({ postgres: l }),
      log: logger.child({ component: "embedded-postgres" }),
    });
    cleanups.push(() => db.close());
    const applied = await migrate(db.url, (l) => logger.debug({ migrate: l }));
    if (applied.length) logger.info({ migrations: applied }, "PostgreSQL migrations applied");

    // The live streams (docs/api.md "Streams"): PostgreSQL notifications and the watchers' registry.
    const feed = await startChangeFeed(db.url, (e) => logger.warn({ err: e }, "change feed: reconnecting"));
    cleanups.push(() => feed.close());
    const registry = new LiveRegistry(settings.live);
    const live = { registry, feed };

    // docs/observability.md: one registry per server; the outbox is read at each scrape.
    const metrics = createMetrics(() => outboxLag(db.pool));
    const bindings: ServiceBinding[] = [];
    let clickhouseHere: ClickHouseClient | undefined;
    let ciInsights: CiInsightsWiring | undefined;
    // Without the activity log here, the outbox is relayed by the process that runs it (it polls).
    let eventsWritten = () => {};
    if (services.has("activity-log")) {
      const clickhouse = createClickHouseClient(settings.clickhouse);
      clickhouseHere = clickhouse;
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
      const relay = startOutboxRelay({ pool: db.pool, sink, logger });
      cleanups.push(async () => {
        await relay.drain();
        await relay.stop();
      });
      eventsWritten = () => relay.kick();
      const activityLog = createActivityLogService({
        db: db.api,
        eventsWritten,
        clickhouse,
        cursorSecret: admin.key,
        pages,
        live,
      });
      bindings.push({ service: ActivityLogService, impl: activityLog } as ServiceBinding);
      // CI Insights needs ClickHouse: it runs with the activity log (docs/ci-insights.md).
      const ci = { db: db.pool, clickhouse, cluster: settings.clickhouseCluster, logger, eventsWritten, metrics };
      ciInsights = await wireCiInsights(ci, bindings, cleanups);
    }

    let platform: PlatformTokenVerifier | undefined;
    let routes: ((app: App) => Promise<void>) | undefined;
    if (services.has("queue") || services.has("simulator")) {
      const forge = await wireForge(settings, db.pool, logger, ciInsights?.localCi);
      cleanups.push(() => forge.close());
      ciInsights?.setForge(forge.forge);
      platform = forge.platform;
      bindings.push(...forge.bindings);
      if (services.has("queue")) {
        // The self-tuning default reads the activity log: here, or the ClickHouse server it is on.
        let reader = clickhouseHere;
        if (!reader && "url" in settings.clickhouse) {
          const remote = createClickHouseClient(settings.clickhouse);
          cleanups.push(() => remote.close());
          reader = remote;
        }
        const readTraffic = reader
          ? (repository: string, from: Date, to: Date) => readTrafficSample(reader!, repository, from, to)
          : undefined;
        const queue = wireQueue({
          db: db.pool,
          api: db.api,
          forge: forge.forge,
          logger,
          eventsWritten,
          live,
          readTraffic,
          observeRound: (f) => metrics.observeRound(f),
          // docs/merge-queue.md "Verdicts from test results": CI Insights in this process.
          testResults: ciInsights?.testResults,
        });
        forge.setSink(queue.sink);
        queue.runner.start();
        cleanups.push(() => queue.runner.stop());
        // Webhooks feed the queue: they are received where it runs.
        routes = forge.routes;
        bindings.push({ service: QueueService, impl: queue.queueService } as ServiceBinding);
      }
      if (services.has("simulator")) {
        // The what-if reads the activity log: this process's client, or a server's by URL (an
        // embedded engine's directory is locked by the process serving the activity log).
        let clickhouse = clickhouseHere;
        if (!clickhouse && "url" in settings.clickhouse) {
          const own = createClickHouseClient(settings.clickhouse);
          cleanups.push(() => own.close());
          clickhouse = own;
        }
        bindings.push({
          service: SimulatorService,
          impl: createSimulatorService({ db: db.api, forge: forge.forge, clickhouse }),
        } as ServiceBinding);
      }
    } else if (settings.forge === "github") {
      platform = githubTokenVerifier(logger);
    }
    for (const name of SERVICE_NAMES) {
      const url = settings.remotes[name];
      if (!services.has(name) && url !== undefined)
        bindings.push({ service: SERVICES[name], impl: remoteServiceImpl(SERVICES[name], url) } as ServiceBinding);
    }
    bindings.push(
      { service: ProductService, impl: createProductService({ db: db.api, eventsWritten }) } as ServiceBinding,
      {
        service: TokenService,
        impl: createTokenService({
          insert: (t) => insertToken(db.api, t),
          list: () => listTokens(db.api),
          revoke: (id) => revokeToken(db.api, id),
        }),
      } as ServiceBinding,
    );

    const readiness = createReadiness(db.pool, clickhouseHere);
    const authorizer = createAuthorizer({
      adminKey: admin.key,
      tokens: { findToken: (id) => findToken(db.api, id) },
      platform,
    });
    const app = await buildApp({
      bindings,
      authorizer,
      logger,
      // The webhook routes (with the queue) and the web dashboard at / (docs/dashboard.md).
      extraRoutes: async (app) => {
        await routes?.(app);
        await registerDashboard(app);
      },
      metrics,
      readiness: readiness.checks,
      readinessDetails: async () => ({ ...(await readiness.details()), streams: registry.stats() }),
      streamStallMs: settings.live.stallMs,
      publicUrl: settings.publicUrl,
      trustProxy: settings.trustProxy,
    });
    cleanups.push(() => app.close());
    // Open streams end first (UNAVAILABLE, "reconnect"), so that closing the app does not wait for them.
    cleanups.push(async () => registry.close());
    await app.listen({ port: settings.port, host: settings.host });
    const port = (app.server.address() as { port: number }).port;
    for (const line of bannerLines(settings, port, services, admin)) onBanner(line);
    // The start-up log lines, held so that the banner comes first (logger.ts).
    release();
    return { app, port, adminKey: admin.key, db, services, logger, close: cleanup };
  } catch (e) {
    release();
    await cleanup();
    throw e;
  }
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
