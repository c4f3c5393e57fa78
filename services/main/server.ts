/**
 * Starts Yardmaster (docs/deployment.md "The operational contract"): by default every service in
 * one process on embedded defaults — PostgreSQL (URL or embedded) with migrations, ClickHouse (URL
 * or embedded chdb) with migrations, the outbox relay, the forge (local or GitHub), the queue runner, every service on
 * one port (REST, Connect, gRPC, gRPC-Web) — or, with `--only`, some of them, the others reached
 * at their URLs (docs/deployment.md); a clean shutdown in reverse order.
 */
import { mkdir } from "node:fs/promises";
import type { Logger } from "pino";
import { ProductService, TokenService } from "../../gen/yardmaster/v1/admin_pb.js";
import { QueueService } from "../../gen/yardmaster/v1/queue_pb.js";
import { WebhookService } from "../../gen/yardmaster/v1/webhooks_pb.js";
import { SimulatorService } from "../../gen/yardmaster/v1/simulator_pb.js";
import { createClickHouseClient, readTrafficSample, type ClickHouseClient } from "../activity-log/index.js";
import { createProductService, createTokenService } from "../admin/index.js";
import { registerDashboard } from "../dashboard/index.js";
import { createAuthorizer, type PlatformTokenVerifier } from "../auth/index.js";
import { buildApp, type App, type ServiceBinding } from "../gateway/index.js";
import { LiveRegistry } from "../live/index.js";
import { createMetrics, type ReplicaFigures } from "../metrics/index.js";
import { createWebhookService, startDeliveryLoop } from "../notifications/index.js";
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
  type Database,
} from "../store/index.js";
import { loadOrCreateAdminKey } from "./admin-key.js";
import { bannerLines, localUrl } from "./banner.js";
import { removeListeningNote, writeListeningNote } from "./listening-file.js";
import { checkPortFree, portInUseMessage } from "./port-probe.js";
import { wireActivityLog } from "./activity-log-wiring.js";
import type { CiInsightsWiring } from "./ci-insights-wiring.js";
import { githubTokenVerifier, wireForge } from "./forge-wiring.js";
import { productChangedInput, wireQueue } from "./queue-wiring.js";
import { createStartLogger } from "./logger.js";
import { createReadiness } from "./readiness.js";
import { remoteServiceImpl } from "./remote-service.js";
import { joinReplicas, newReplicaIdentity, replicaFigures } from "./replica-wiring.js";
import { SERVICE_NAMES, SettingsError, type ServiceName, type Settings } from "./settings.js";
import { SERVICES, servicesToRun } from "./service-set.js";
import { yardmasterVersion } from "./version.js";

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
  /** From now on /readyz answers 503 (check `process`: "shutting down") while all else serves (docs/deployment.md "Several replicas"). */
  beginShutdown(): void;
  close(): Promise<void>;
}

/**
 * Starts the services of `only` (default: all; `yardmaster serve --only`) and listens. A service
 * not run here is forwarded to its URL (YARDMASTER_QUEUE_URL, YARDMASTER_SIMULATOR_URL,
 * YARDMASTER_ACTIVITY_LOG_URL) or not served. Only what the services run here need is started:
 * ClickHouse and the outbox relay with the activity log; the forge with the queue or the
 * simulator; the queue runner with the queue. PostgreSQL (tokens, pause, outbox) always.
 * @param onBanner receives the human-readable start lines (URL, where the admin key is)
 * @throws SettingsError naming PORT when the port is in use (checked before anything else);
 *   when a database cannot start, a migration fails or a setting is missing (nothing is left running)
 */
export async function startServer(
  settings: Settings,
  onBanner: (line: string) => void = () => {},
  only?: readonly string[],
): Promise<RunningServer> {
  const services = servicesToRun(settings, only);
  // Before any work: a busy port is said now, not after the databases started and migrated.
  await checkPortFree(settings.host, settings.port);
  const { logger, release } = createStartLogger(settings.logLevel, settings.logFormat);
  await mkdir(settings.dataDir, { recursive: true });
  // CLI commands read it: a server starting here, then where it listens (listening-file.ts).
  const startedAt = new Date().toISOString();
  await writeListeningNote(settings.dataDir, { pid: process.pid, state: "starting", startedAt });
  const admin = await loadOrCreateAdminKey(settings.dataDir, settings.adminKey).catch(async (e) => {
    await removeListeningNote(settings.dataDir);
    throw e;
  });
  const cleanups: (() => Promise<void>)[] = [];
  cleanups.push(() => removeListeningNote(settings.dataDir));
  const cleanup = async () => {
    for (const c of cleanups.reverse()) await c().catch((e) => logger.warn({ err: e }, "shutdown step failed"));
  };
  // The worker threads (started by the first large configuration text or body), stopped last.
  cleanups.push(() => closeSharedPool());
  try {
    // Every session is named after this process, so other replicas can find and end a stalled one's.
    const replica = newReplicaIdentity();
    const db = await openDatabase({
      url: settings.databaseUrl,
      dataDir: settings.dataDir,
      onLog: (l) => logger.debug({ postgres: l }),
      log: logger.child({ component: "embedded-postgres" }),
      applicationName: replica.applicationName,
    });
    cleanups.push(() => db.close());
    const applied = await migrate(db.url, (l) => logger.debug({ migrate: l }));
    if (applied.length) logger.info({ migrations: applied }, "PostgreSQL migrations applied");

    // The live streams (docs/api.md "Streams"): PostgreSQL notifications and the watchers' registry.
    const feed = await startChangeFeed(db.url, (e) => logger.warn({ err: e }, "change feed: reconnecting"));
    cleanups.push(() => feed.close());
    const registry = new LiveRegistry(settings.live);
    const live = { registry, feed };

    // Webhooks (docs/notifications.md): the delivery loop runs in every process, apart from the queue.
    const deliveries = startDeliveryLoop({
      db: db.pool,
      logger,
      userAgent: `Yardmaster-Webhooks/${yardmasterVersion()}`,
      retryBaseMs: settings.webhookRetryBaseMs,
    });
    cleanups.push(() => deliveries.stop());

    // docs/observability.md: one registry per server; the outbox and the replica are read at each scrape.
    let replicaNow: (() => ReplicaFigures) | undefined;
    const metrics = createMetrics(() => outboxLag(db.pool), services.has("queue") ? () => replicaNow!() : undefined);
    const bindings: ServiceBinding[] = [];
    let clickhouseHere: ClickHouseClient | undefined;
    let ciInsights: CiInsightsWiring | undefined;
    // Without the activity log here, the outbox is relayed by the process that runs it (it polls).
    let eventsWritten = () => {};
    if (services.has("activity-log")) {
      const log = await wireActivityLog({ settings, db, admin, live, metrics, deliveries, logger, bindings, cleanups });
      clickhouseHere = log.clickhouse;
      eventsWritten = log.eventsWritten;
      ciInsights = log.ciInsights;
    }

    // The activity log's ClickHouse for this process's readers: its own client, or one client of the
    // server's by URL (an embedded engine's directory is locked by the process serving the log).
    let remoteReader: ClickHouseClient | undefined;
    const clickhouseReader = (): ClickHouseClient | undefined => {
      if (clickhouseHere || !("url" in settings.clickhouse)) return clickhouseHere;
      if (!remoteReader) {
        const remote = createClickHouseClient(settings.clickhouse);
        cleanups.push(() => remote.close());
        remoteReader = remote;
      }
      return remoteReader;
    };
    let platform: PlatformTokenVerifier | undefined;
    let routes: ((app: App) => Promise<void>) | undefined;
    let forgeReadiness: (() => Record<string, unknown>) | undefined;
    if (services.has("queue") || services.has("simulator")) {
      const forge = await wireForge(settings, db.pool, logger, ciInsights?.localCi, ciInsights?.githubRetries);
      cleanups.push(() => forge.close());
      ciInsights?.setForge(forge.forge);
      platform = forge.platform;
      forgeReadiness = forge.readiness;
      bindings.push(...forge.bindings);
      if (services.has("queue")) {
        // The self-tuning default reads the activity log: here, or the ClickHouse server it is on.
        const reader = clickhouseReader();
        const readTraffic = reader
          ? (repository: string, from: Date, to: Date) => readTrafficSample(reader!, repository, from, to)
          : undefined;
        // Among the replicas: joined before the runner starts, left after it stopped (its locks released).
        const membership = await joinReplicas({ id: replica.id, settings, db, feed, logger });
        cleanups.push(() => membership.stop());
        const queue = wireQueue({
          db: db.pool,
          api: db.api,
          forge: forge.forge,
          directory: forge.directory,
          logger,
          eventsWritten,
          live,
          readTraffic,
          observeRound: (f) => metrics.observeRound(f),
          // docs/merge-queue.md "Verdicts from test results": CI Insights in this process.
          testResults: ciInsights?.testResults,
          // docs/merge-queue.md "Risk-aware batching": known flaky tests from CI Insights' kept list.
          flakyTests: ciInsights?.flakyTestFiles,
          ownership: membership,
          reconcileIntervalSeconds: settings.reconcileIntervalSeconds,
          redeliver: forge.redeliver,
        });
        replicaNow = () => replicaFigures(membership, queue.runner);
        forge.setSink(queue.sink);
        queue.runner.start();
        cleanups.push(() => queue.runner.stop());
        // Webhooks feed the queue: they are received where it runs.
        routes = forge.routes;
        bindings.push({ service: QueueService, impl: queue.queueService } as ServiceBinding);
      }
      if (services.has("simulator")) {
        // The what-if reads the activity log.
        const clickhouse = clickhouseReader();
        bindings.push({
          service: SimulatorService,
          impl: createSimulatorService({ db: db.api, forge: forge.forge, clickhouse }),
        } as ServiceBinding);
      }
    } else if (settings.forge === "github") {
      platform = githubTokenVerifier(logger, settings);
    }
    for (const name of SERVICE_NAMES) {
      const url = settings.remotes[name];
      if (!services.has(name) && url !== undefined)
        bindings.push({ service: SERVICES[name], impl: remoteServiceImpl(SERVICES[name], url) } as ServiceBinding);
    }
    bindings.push(
      {
        service: WebhookService,
        impl: createWebhookService({ db: db.api, deliveriesDue: () => deliveries.kick() }),
      } as ServiceBinding,
      {
        service: ProductService,
        impl: createProductService({ db: db.api, eventsWritten, productChanged: productChangedInput }),
      } as ServiceBinding,
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
    let shuttingDown = false;
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
      readiness: async () => ({ ...(await readiness.checks()), ...(shuttingDown ? { process: "shutting down" } : {}) }),
      readinessDetails: async () => ({
        ...(await readiness.details()),
        ...(forgeReadiness?.() ?? {}),
        streams: registry.stats(),
      }),
      streamStallMs: settings.live.stallMs,
      publicUrl: settings.publicUrl,
      trustProxy: settings.trustProxy,
    });
    cleanups.push(() => app.close());
    // Open streams end first (UNAVAILABLE, "reconnect"), so that closing the app does not wait for them.
    cleanups.push(async () => registry.close());
    await app.listen({ port: settings.port, host: settings.host }).catch((e: NodeJS.ErrnoException) => {
      throw e.code === "EADDRINUSE" ? new SettingsError(portInUseMessage(settings.host, settings.port)) : e;
    });
    const port = (app.server.address() as { port: number }).port;
    await writeListeningNote(settings.dataDir, {
      pid: process.pid,
      state: "listening",
      url: localUrl(settings.host, port),
      startedAt,
    });
    for (const line of bannerLines(settings, port, services, admin)) onBanner(line);
    // The start-up log lines, held so that the banner comes first (logger.ts).
    release();
    const beginShutdown = () => void (shuttingDown = true);
    return { app, port, adminKey: admin.key, db, services, logger, beginShutdown, close: cleanup };
  } catch (e) {
    release();
    await cleanup();
    throw e;
  }
}
