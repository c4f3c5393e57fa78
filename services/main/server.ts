/**
 * Starts Yardmaster in one process (DESIGN.md §2 "all services in one process on embedded
 * defaults"): PostgreSQL (URL or embedded) with migrations, ClickHouse (URL or embedded chdb) with
 * migrations, the outbox relay, the forge (local or GitHub), the queue runner, every service on
 * one port (REST, Connect, gRPC, gRPC-Web), and a clean shutdown in reverse order.
 */
import { mkdir } from "node:fs/promises";
import pino, { type Logger } from "pino";
import { ActivityLogService } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { ProductService, TokenService } from "../../gen/yardmaster/v1/admin_pb.js";
import { QueueService } from "../../gen/yardmaster/v1/queue_pb.js";
import { SimulatorService } from "../../gen/yardmaster/v1/simulator_pb.js";
import { clusterLayout, createActivityLogService, createClickHouseClient, createEventSink, migrateClickHouse, type ClickHouseClient } from "../activity-log/index.js";
import type { QueueRunner } from "../engine/runner/index.js";
import { buildApp, createAuthorizer, createTokenService, type App, type ServiceBinding } from "../gateway/index.js";
import { createProductService, createSimulatorService } from "../simulator/index.js";
import { findToken, insertToken, listTokens, migrate, openDatabase, revokeToken, startOutboxRelay, type Database, type OutboxRelay } from "../store/index.js";
import { loadOrCreateAdminKey } from "./admin-key.js";
import { wireForge } from "./forge-wiring.js";
import { wireQueue } from "./queue-wiring.js";
import type { Settings } from "./settings.js";

export interface RunningServer {
  app: App;
  /** The port actually listened on (useful with PORT=0). */
  port: number;
  adminKey: string;
  db: Database;
  clickhouse: ClickHouseClient;
  relay: OutboxRelay;
  runner: QueueRunner;
  logger: Logger;
  close(): Promise<void>;
}

/**
 * Starts everything and listens.
 * @param onBanner receives the human-readable start lines (URL, admin key)
 * @throws when a database cannot start, a migration fails or a setting is missing (nothing is left running)
 */
export async function startServer(settings: Settings, onBanner: (line: string) => void = () => {}): Promise<RunningServer> {
  const logger = pino({ level: settings.logLevel });
  await mkdir(settings.dataDir, { recursive: true });
  const admin = await loadOrCreateAdminKey(settings.dataDir, settings.adminKey);
  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async () => {
    for (const c of cleanups.reverse()) await c().catch((e) => logger.warn({ err: e }, "shutdown step failed"));
  };
  try {
    const db = await openDatabase({ url: settings.databaseUrl, dataDir: settings.dataDir, onLog: (l) => logger.debug({ postgres: l }) });
    cleanups.push(() => db.close());
    const applied = await migrate(db.url, (l) => logger.debug({ migrate: l }));
    if (applied.length) logger.info({ migrations: applied }, "PostgreSQL migrations applied");

    const clickhouse = createClickHouseClient(settings.clickhouse);
    cleanups.push(() => clickhouse.close());
    const chApplied = await migrateClickHouse(clickhouse, settings.clickhouseCluster ? clusterLayout(settings.clickhouseCluster) : undefined);
    if (chApplied.length) logger.info({ migrations: chApplied }, "ClickHouse migrations applied");

    const relay = startOutboxRelay({ pool: db.pool, sink: createEventSink(clickhouse), logger });
    cleanups.push(async () => {
      await relay.drain();
      await relay.stop();
    });
    const eventsWritten = () => relay.kick();

    const forge = wireForge(settings, db.pool, logger);
    cleanups.push(() => forge.close());
    const queue = wireQueue({ db: db.pool, forge: forge.forge, logger, eventsWritten });
    forge.setSink(queue.sink);
    queue.runner.start();
    cleanups.push(() => queue.runner.stop());

    const authorizer = createAuthorizer({ adminKey: admin.key, tokens: { findToken: (id) => findToken(db.pool, id) }, platform: forge.platform });
    const bindings: ServiceBinding[] = [
      { service: QueueService, impl: queue.queueService },
      { service: SimulatorService, impl: createSimulatorService({ db: db.pool, forge: forge.forge }) },
      { service: ActivityLogService, impl: createActivityLogService({ db: db.pool, eventsWritten, clickhouse, cursorSecret: admin.key }) },
      { service: ProductService, impl: createProductService({ db: db.pool, eventsWritten }) },
      {
        service: TokenService,
        impl: createTokenService({
          insert: (t) => insertToken(db.pool, t),
          list: () => listTokens(db.pool),
          revoke: (id) => revokeToken(db.pool, id),
        }),
      },
      ...forge.bindings,
    ] as ServiceBinding[];

    const app = await buildApp({
      bindings,
      authorizer,
      logger,
      extraRoutes: forge.routes,
      readiness: async () => ({
        postgresql: await db.pool.query("SELECT 1").then(() => null, (e: Error) => e.message),
        clickhouse: await clickhouse.ping().then((r) => (r.success ? null : String((r as { error?: Error }).error?.message ?? "no answer")), (e: Error) => e.message),
      }),
    });
    cleanups.push(() => app.close());
    await app.listen({ port: settings.port, host: settings.host });
    const port = (app.server.address() as { port: number }).port;
    onBanner(`Yardmaster is listening on http://${settings.host === "0.0.0.0" ? "127.0.0.1" : settings.host}:${port} (REST under /v1, Connect, gRPC and gRPC-Web on the same port)`);
    onBanner(admin.generated ? `Admin key (generated, stored in ${admin.source}): ${admin.key}` : `Admin key: ${admin.key} (from ${admin.source})`);
    return { app, port, adminKey: admin.key, db, clickhouse, relay, runner: queue.runner, logger, close: cleanup };
  } catch (e) {
    await cleanup();
    throw e;
  }
}
