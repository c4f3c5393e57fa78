/**
 * The PostgreSQL connection pool: `DATABASE_URL` when given, else the embedded server in the data
 * directory (docs/deployment.md "The operational contract"), supervised (postgres-supervisor.ts).
 * Migrations run at open (migrate.ts).
 *
 * A connection that dies is never an unhandled `error` event (docs/reliability.md "Database
 * outages"): node-postgres emits `error` on a client whose connection ends, and a pool listens
 * only on its idle clients; {@link guardConnectionErrors} gives every client the pool creates a
 * listener of its own for as long as it lives, checked out or idle. The failed query rejects as
 * usual, the pool drops the dead client on release, and new connections are made when the server
 * answers again.
 */
import pg from "pg";
import path from "node:path";
import { DatabaseUnavailableError, isDatabaseUnavailable } from "../outage/index.js";
import { superviseEmbeddedPostgres, type SupervisedPostgres, type SupervisorLog } from "./postgres-supervisor.js";

/**
 * How long taking a new connection may wait, ms: a server that does not answer (stopped, frozen,
 * unreachable) fails the request with a connection timeout instead of holding it.
 */
export const CONNECT_TIMEOUT_MS = 5000;

/**
 * How long a query of the API's pool may wait for its answer, ms: past it the request fails with
 * 503 (PostgreSQL unavailable) and the connection is replaced, so a frozen server never holds a
 * reader longer (docs/reliability.md "Database outages"). The service's own pool (runner, relay,
 * forge) has no such limit: its work waits for the database, which it cannot do without.
 */
export const API_QUERY_TIMEOUT_MS = 5000;

/**
 * A node-postgres pool. Timestamps come back as Date; bigint (int8) as string, so 64-bit values
 * stay exact.
 */
export type Pool = pg.Pool;
/** A client checked out of a {@link Pool} (e.g. inside {@link withTransaction}); same value types. */
export type PoolClient = pg.PoolClient;
/** What runs queries: a pool, or one client (in a transaction or not). */
export type Queryable = pg.Pool | pg.ClientBase;

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
  /**
   * One connection for the queue runner's replica heartbeats (docs/deployment.md "Several
   * replicas"), kept open: they never wait for the runner's work, and the open session is how the
   * other replicas know this process lives.
   */
  heartbeats: pg.Pool;
  /** The connection string in use (password included: never log it). */
  url: string;
  /** Closes the pool and stops the embedded server if one was started. */
  close(): Promise<void>;
}

/**
 * The pool's client: a connection that cannot be made because the server does not answer (a
 * refused or timed-out socket, which says nothing of whose it was) fails with
 * DatabaseUnavailableError naming PostgreSQL, the socket error as its cause, so a 503 names the
 * database (docs/errors.md "Outages").
 */
class PostgresClient extends pg.Client {
  override connect(): Promise<pg.Client>;
  override connect(callback: (err: Error | null) => void): void;
  override connect(callback?: (err: Error | null) => void): Promise<pg.Client> | void {
    const named = (e: Error) =>
      isDatabaseUnavailable(e) && !(e instanceof DatabaseUnavailableError)
        ? new DatabaseUnavailableError("PostgreSQL", "PostgreSQL does not answer", { cause: e })
        : e;
    if (callback) return super.connect(((err: Error | null) => callback(err && named(err))) as (err: Error) => void);
    return super.connect().catch((e: Error) => Promise.reject(named(e)));
  }

  /**
   * A query whose answer does not come within the client's `query_timeout` (a frozen server, or
   * one that stopped answering this connection) fails with node-postgres's "Query read timeout";
   * node-postgres then leaves the connection waiting for that answer, so every later query on it
   * would wait too. The connection is destroyed instead: the pool drops the client when it is
   * released and opens a new one when the server answers again (docs/reliability.md "Database
   * outages").
   */
  override query(...args: unknown[]): never {
    const drop = (e: unknown) => {
      if (e instanceof Error && e.message === "Query read timeout") this.destroyConnection();
    };
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === "function") {
      args[last] = (err: Error | null, res: unknown) => {
        if (err) drop(err);
        callback(err, res);
      };
    }
    const result = (super.query as (...a: unknown[]) => unknown)(...args);
    // node-postgres declares query with a dozen overloads that no one typed signature implements:
    // this override answers `never` (assignable to each), and what it returns is what the base gave.
    if (result instanceof Promise)
      return result.catch((e: unknown) => {
        drop(e);
        throw e;
      }) as never;
    return result as never;
  }

  private destroyConnection(): void {
    (this as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  }
}

/**
 * Makes every connection error of `pool` handled: the pool's own `error` (an idle client died)
 * and each client's (checked out or not), reported to `onError`.
 */
export function guardConnectionErrors(pool: pg.Pool, onError: (e: Error) => void): void {
  pool.on("error", onError);
  pool.on("connect", (client) => void client.on("error", onError));
}

/**
 * Opens the database: the pool of the service's own work (10 connections), the API's (5) and the
 * replica heartbeats' (1; no connection is made until it is used).
 * @param opts.url DATABASE_URL, or undefined for the embedded server under `<dataDir>/postgres`
 * @param opts.onLog receives the embedded server's log lines and connection errors (debug detail)
 * @param opts.log receives the embedded server's deaths and restarts (postgres-supervisor.ts)
 * @param opts.applicationName names every session of the two pools (docs/deployment.md "Several replicas")
 */
export async function openDatabase(opts: {
  url?: string;
  dataDir: string;
  onLog?: (line: string) => void;
  log?: SupervisorLog;
  maxConnections?: number;
  apiConnections?: number;
  /**
   * The `application_name` of every session of both pools: a replica's own
   * (store/replicas.ts `replicaApplicationName`), so that the others can find and end its sessions.
   */
  applicationName?: string;
}): Promise<Database> {
  let embedded: SupervisedPostgres | undefined;
  let url = opts.url;
  if (!url) {
    const log: SupervisorLog = opts.log ?? { warn: (_f, m) => opts.onLog?.(m), info: (_f, m) => opts.onLog?.(m) };
    embedded = await superviseEmbeddedPostgres(path.join(opts.dataDir, "postgres"), log, opts.onLog);
    url = embedded.url;
  }
  const poolOptions = {
    connectionString: url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    Client: PostgresClient,
    ...(opts.applicationName ? { application_name: opts.applicationName } : {}),
  };
  const pool = new pg.Pool({ ...poolOptions, max: opts.maxConnections ?? 10 });
  guardConnectionErrors(pool, (e) => opts.onLog?.(`connection error: ${e.message}`));
  const api = new pg.Pool({ ...poolOptions, query_timeout: API_QUERY_TIMEOUT_MS, max: opts.apiConnections ?? 5 });
  guardConnectionErrors(api, (e) => opts.onLog?.(`API connection error: ${e.message}`));
  const heartbeats = new pg.Pool({ ...poolOptions, query_timeout: API_QUERY_TIMEOUT_MS, max: 1, idleTimeoutMillis: 0 });
  guardConnectionErrors(heartbeats, (e) => opts.onLog?.(`heartbeat connection error: ${e.message}`));
  return {
    pool,
    api,
    heartbeats,
    url,
    async close() {
      await heartbeats.end();
      await api.end();
      await pool.end();
      await embedded?.stop();
    },
  };
}

/**
 * A second, small pool to the same database as `pool`, with its connection options (URL, connect
 * timeout, client class): for work that must not wait behind the first pool's clients, such as the
 * local forge's ref journal. Its idle connections ended by the server are replaced on next use;
 * their errors go to `onError`. The caller ends it.
 * @param max connections at most
 */
export function siblingPool(pool: pg.Pool, max: number, onError: (e: Error) => void): pg.Pool {
  const sibling = new pg.Pool({ ...pool.options, max });
  sibling.on("error", onError);
  return sibling;
}

/**
 * Runs `fn` in one transaction (BEGIN ... COMMIT); rolls back and rethrows when `fn` or the COMMIT
 * fails. The project's one transaction helper (docs/reliability.md "Crashes: every effect exactly
 * once" relies on it to record an effect's result and delete the effect together).
 * @param db a pool (a client is checked out for the transaction and released after), or a client
 *   that is not inside a transaction already (e.g. one holding a session-level advisory lock)
 * @returns what `fn` returns, once committed
 * @throws whatever `fn`, BEGIN or COMMIT threw (the transaction is rolled back)
 */
export async function withTransaction<T>(
  db: pg.Pool | pg.ClientBase,
  fn: (client: pg.ClientBase) => Promise<T>,
): Promise<T> {
  if (!(db instanceof pg.Pool)) return inTransaction(db, fn);
  const client = await db.connect();
  try {
    return await inTransaction(client, fn);
  } finally {
    client.release();
  }
}

async function inTransaction<C extends pg.ClientBase, T>(client: C, fn: (client: C) => Promise<T>): Promise<T> {
  await client.query("BEGIN");
  try {
    const result = await fn(client);
    await client.query("COMMIT");
    return result;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    throw e;
  }
}
