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
import { ClickHouseLogLevel, createClient, type ClickHouseClient, type ClickHouseSettings } from "@clickhouse/client";
import { createChdbConnection } from "chdb/connection";

// chdb types its Connection against @clickhouse/client-common; @clickhouse/client bundles its own
// copy of those types, so the injected connection needs this cast (docs/activity-log.md "ClickHouse choices").
type InjectedConnection = NonNullable<NonNullable<Parameters<typeof createClient>[0]>["connection"]>;

export type { ClickHouseClient };

const SETTINGS: ClickHouseSettings = {
  output_format_json_quote_64bit_integers: 1,
  date_time_input_format: "best_effort",
  async_insert: 0,
};

/** Where ClickHouse is: a server URL (with optional credentials) or an embedded data directory. */
export type ClickHouseTarget =
  | { url: string; username?: string; password?: string; database?: string }
  | { embeddedPath: string };

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
  return createClient({
    connection: createChdbConnection({ path: target.embeddedPath }) as unknown as InjectedConnection,
    clickhouse_settings: SETTINGS,
    log: { level: ClickHouseLogLevel.OFF },
  });
}
