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
