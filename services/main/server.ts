/**
 * Starts Yardmaster in one process (DESIGN.md §2 "all services in one process on embedded
 * defaults"): PostgreSQL (URL or embedded) with migrations, ClickHouse (URL or embedded chdb) with
 * migrations, the outbox relay, every service on one port (REST, Connect, gRPC, gRPC-Web), and a
 * clean shutdown in reverse order.
 */
import { mkdir } from "node:fs/promises";
import pino, { type Logger } from "pino";
import { ActivityLogService } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { TokenService } from "../../gen/yardmaster/v1/admin_pb.js";
import { QueueService } from "../../gen/yardmaster/v1/queue_pb.js";
import { SimulatorService } from "../../gen/yardmaster/v1/simulator_pb.js";
import { createActivityLogService, createClickHouseClient, createEventSink, migrateClickHouse, type ClickHouseClient } from "../activity-log/index.js";
import { buildApp, createAuthorizer, createTokenService, type App, type ServiceBinding } from "../gateway/index.js";
import { createQueueService } from "../queue/index.js";
import { findToken, insertToken, listTokens, migrate, openDatabase, revokeToken, startOutboxRelay, type Database, type OutboxRelay } from "../store/index.js";
import { loadOrCreateAdminKey } from "./admin-key.js";
import { ForgeService } from "../../gen/yardmaster/v1/forge_pb.js";
import { ciSlotsFromEnvironment, createForgeService, createLocalForge } from "../forge/local/index.js";
import type { ForgeEventSink } from "../forge/types.js";
import type { Settings } from "./settings.js";

export interface RunningServer {
  app: App;
  /** The port actually listened on (useful with PORT=0). */
  port: number;
  adminKey: string;
  db: Database;
  clickhouse: ClickHouseClient;
  relay: OutboxRelay;
  logger: Logger;
  close(): Promise<void>;
}

/**
 * Starts everything and listens.
 * @param onBanner receives the human-readable start lines (URL, admin key when just generated)
 * @param forgeEvents receives the local forge's events (FORGE=local); default: logged at debug level
 * @throws when a database cannot start or a migration fails (nothing is left running)
 */
export async function startServer(settings: Settings, onBanner: (line: string) => void = () => {}, forgeEvents?: ForgeEventSink): Promise<RunningServer> {
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
    const chApplied = await migrateClickHouse(clickhouse);
    if (chApplied.length) logger.info({ migrations: chApplied }, "ClickHouse migrations applied");

    const relay = startOutboxRelay({ pool: db.pool, sink: createEventSink(clickhouse), logger });
    cleanups.push(async () => {
      await relay.drain();
      await relay.stop();
    });
    const eventsWritten = () => relay.kick();

    const authorizer = createAuthorizer({ adminKey: admin.key, tokens: { findToken: (id) => findToken(db.pool, id) } });
    const bindings: ServiceBinding[] = [
      { service: QueueService, impl: createQueueService({ db: db.pool, eventsWritten }) },
      { service: SimulatorService, impl: {} },
      { service: ActivityLogService, impl: createActivityLogService({ db: db.pool, eventsWritten, clickhouse, cursorSecret: admin.key }) },
      {
        service: TokenService,
        impl: createTokenService({
          insert: (t) => insertToken(db.pool, t),
          list: () => listTokens(db.pool),
          revoke: (id) => revokeToken(db.pool, id),
        }),
      },
    ] as ServiceBinding[];

    // ---- Local forge (FORGE=local; docs/local-forge.md): bare git repositories in the data
    // directory, pull requests in PostgreSQL, the local CI worker (YARDMASTER_CI_SLOTS), and
    // ForgeService for `yardmaster repo|pr|ci`. Its events go to `forgeEvents`.
    if (settings.forge === "local") {
      const localForge = createLocalForge({
        db: db.pool,
        dataDir: settings.dataDir,
        logger: logger.child({ component: "local-forge" }),
        sink: forgeEvents ?? ((event) => logger.debug({ forgeEvent: event }, "forge event")),
        ci: { slots: ciSlotsFromEnvironment(process.env) },
      });
      cleanups.push(() => localForge.close());
      bindings.push({ service: ForgeService, impl: createForgeService(localForge) } as ServiceBinding);
    }
    // ---- end of the local forge

    const app = await buildApp({
      bindings,
      authorizer,
      logger,
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
    return { app, port, adminKey: admin.key, db, clickhouse, relay, logger, close: cleanup };
  } catch (e) {
    await cleanup();
    throw e;
  }
}
