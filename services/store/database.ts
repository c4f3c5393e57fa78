/**
 * The PostgreSQL connection pool: `DATABASE_URL` when given, else the embedded server in the data
 * directory (DESIGN.md §2). Migrations run at open (migrate.ts).
 */
import pg from "pg";
import { startEmbeddedPostgres, type EmbeddedServer } from "./embedded-postgres.js";
import path from "node:path";

/**
 * A node-postgres pool. Timestamps come back as Date; bigint (int8) as string, so 64-bit values
 * stay exact.
 */
export type Pool = pg.Pool;
/** A client checked out of a {@link Pool} (e.g. inside {@link withTransaction}); same value types. */
export type PoolClient = pg.PoolClient;

/**
 * An open PostgreSQL database ({@link openDatabase}): the pool, its connection string and how to
 * close it.
 */
export interface Database {
  pool: pg.Pool;
  /**
   * The API handlers' own pool (docs/reliability.md "Load"): readers under load wait for these
   * connections, never for `pool`'s, which the queue runner, the relay and the forge use.
   */
  api: pg.Pool;
  /** The connection string in use (password included: never log it). */
  url: string;
  /** Closes the pool and stops the embedded server if one was started. */
  close(): Promise<void>;
}

/**
 * Opens the database: the pool of the service's own work (10 connections) and the API's (5).
 * @param opts.url DATABASE_URL, or undefined for the embedded server under `<dataDir>/postgres`
 */
export async function openDatabase(opts: {
  url?: string;
  dataDir: string;
  onLog?: (line: string) => void;
  maxConnections?: number;
  apiConnections?: number;
}): Promise<Database> {
  let embedded: EmbeddedServer | undefined;
  let url = opts.url;
  if (!url) {
    embedded = await startEmbeddedPostgres(path.join(opts.dataDir, "postgres"), opts.onLog);
    url = embedded.url;
  }
  const pool = new pg.Pool({ connectionString: url, max: opts.maxConnections ?? 10 });
  pool.on("error", (e) => opts.onLog?.(`idle client error: ${e.message}`));
  const api = new pg.Pool({ connectionString: url, max: opts.apiConnections ?? 5 });
  api.on("error", (e) => opts.onLog?.(`idle API client error: ${e.message}`));
  return {
    pool,
    api,
    url,
    async close() {
      await api.end();
      await pool.end();
      await embedded?.stop();
    },
  };
}

/** Runs `fn` in a transaction; commits on success, rolls back and rethrows on error. */
export async function withTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const result = await fn(client);
    await client.query("COMMIT");
    return result;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}
