/**
 * An embedded ClickHouse (chdb) for a test file, migrated, in its own temporary directory. chdb
 * binds one data directory per process, and vitest runs each file in its own process (forks).
 */
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createClickHouseClient, migrateClickHouse, type ClickHouseClient } from "../../services/activity-log/index.js";

export async function embeddedClickHouse(): Promise<ClickHouseClient> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "ym-test-ch-"));
  const client = createClickHouseClient({ embeddedPath: dir });
  await migrateClickHouse(client);
  return client;
}

/**
 * `client` with its `/logs` page queries counted (the queries reading `FROM events WHERE`, as
 * log-page.ts builds them): the answer cache's tests tell by `pageQueries()` whether a page was
 * answered from the cache (no query) or read again.
 */
export function countingPageQueries(client: ClickHouseClient): { client: ClickHouseClient; pageQueries: () => number } {
  let count = 0;
  const counting = new Proxy(client, {
    get: (target, key) =>
      key === "query"
        ? (q: { query: string }) => (/FROM events WHERE/.test(q.query) && count++, target.query(q as never))
        : Reflect.get(target, key),
  });
  return { client: counting, pageQueries: () => count };
}
