/**
 * The ClickHouse client: `@clickhouse/client` over HTTP when a URL is given (CLICKHOUSE_URL), or
 * over the embedded engine (npm `chdb`, `chdb/connection`) in a data directory — the same client
 * API and the same queries either way (docs/activity-log.md "ClickHouse choices").
 *
 * Settings are set once, at client level, because the embedded connection applies per-query
 * settings to a shared session where they would leak into later queries (docs/activity-log.md "ClickHouse choices"):
 * 64-bit integers come back quoted (exact as strings), date-times are parsed best-effort on insert,
 * and inserts wait until they are visible.
 */
import { Readable } from "node:stream";
import { ClickHouseLogLevel, createClient, type ClickHouseClient, type ClickHouseSettings } from "@clickhouse/client";
import { createChdbConnection, type ChdbConnection } from "chdb/connection";
import { EMBEDDED_THREAD_NICE, lowerEmbeddedThreadPriority } from "./embedded-threads.js";

// chdb types its Connection against @clickhouse/client-common; @clickhouse/client bundles its own
// copy of those types, so the injected connection needs this cast (docs/activity-log.md "ClickHouse choices").
type InjectedConnection = NonNullable<NonNullable<Parameters<typeof createClient>[0]>["connection"]>;

export type { ClickHouseClient };

/** The settings of every query and insert (plain values, so chdb's raw insert takes them too). */
const SETTINGS = {
  output_format_json_quote_64bit_integers: 1,
  date_time_input_format: "best_effort",
  async_insert: 0,
} satisfies ClickHouseSettings & Record<string, string | number | boolean>;

/** Where ClickHouse is: a server URL (with optional credentials) or an embedded data directory. */
export type ClickHouseTarget =
  | { url: string; username?: string; password?: string; database?: string }
  | {
      embeddedPath: string;
      /** The nice value of the engine's threads (0-19; default {@link EMBEDDED_THREAD_NICE}; 0: unchanged). */
      threadNice?: number;
    };

/**
 * Creates a client. An embedded target opens the chdb engine on the directory; only one directory
 * per process and one process per directory (chdb locks it).
 */
export function createClickHouseClient(target: ClickHouseTarget): ClickHouseClient {
  if ("url" in target) {
    return createClient({
      url: target.url,
      username: target.username,
      password: target.password,
      database: target.database,
      clickhouse_settings: SETTINGS,
      request_timeout: 30_000,
      // Failures reach callers as errors, which log them with context; the client's own log is off.
      log: { level: ClickHouseLogLevel.OFF },
    });
  }
  const connection = createChdbConnection({ path: target.embeddedPath });
  lowerEmbeddedThreadPriority(target.threadNice ?? EMBEDDED_THREAD_NICE);
  const client = createClient({
    connection: connection as unknown as InjectedConnection,
    clickhouse_settings: SETTINGS,
    log: { level: ClickHouseLogLevel.OFF },
  });
  embedded.set(client, connection);
  return client;
}

/** The embedded engine's connection behind a client, for the inserts that hand it bytes. */
const embedded = new WeakMap<ClickHouseClient, ChdbConnection>();

/**
 * Inserts rows already serialised in `format` (UTF-8 bytes, e.g. JSONEachRow made in a worker
 * thread) as one block, without turning them into a JavaScript string on the event loop: the
 * embedded engine takes the buffer as is (chdb's raw insert, parsed on its own threads); a server
 * gets it as the request body. The client's settings apply.
 * @param table a plain table name (not quoted: the caller's own constant)
 * @throws Error for a table name that is not a plain identifier; ClickHouseError when the insert fails
 */
export async function insertRaw(
  client: ClickHouseClient,
  table: string,
  format: "JSONEachRow",
  data: Uint8Array,
): Promise<void> {
  if (!/^\w+$/.test(table)) throw new Error(`table name "${table}" is not a plain identifier`);
  if (data.byteLength === 0) return;
  const connection = embedded.get(client);
  if (connection) {
    await connection.chdb.rawInsert({ table, format, values: data, settings: SETTINGS });
    return;
  }
  const r = await client.exec({
    query: `INSERT INTO ${table} FORMAT ${format}`,
    values: Readable.from([Buffer.from(data.buffer, data.byteOffset, data.byteLength)]),
  });
  r.stream.destroy();
}
