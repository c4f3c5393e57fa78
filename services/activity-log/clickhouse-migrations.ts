/**
 * Numbered, forward-only ClickHouse migrations (`migrations/NNNN_name.sql`), recorded in the
 * `schema_migrations` table. There is no migration library for ClickHouse that works with the
 * embedded engine; this runner is the smallest thing that does the job: apply every file whose
 * number is not recorded yet, in order, then record it. A file holds one statement, or several
 * each ending with `;` at the end of a line; its statements must be safe to run again (IF NOT
 * EXISTS, guarded backfills), since a failure part-way leaves the file unrecorded. Migrations run
 * before the outbox relay starts, so nothing is inserted while they run (backfills rely on it).
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ClickHouseClient } from "@clickhouse/client";

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");
const FILE = /^(\d{4})_[a-z0-9_]+\.sql$/;

/**
 * Applies pending migrations.
 * @param rewrite optional per-statement rewrite into one or more statements (cluster-layout.ts
 *   turns each table into a replicated local table and a Distributed one)
 * @param source another folder's migrations and the table recording them (CI Insights keeps its
 *   own, docs/ci-insights.md "Storage"); default the activity log's
 * @returns file names applied now
 * @throws Error naming the file when a statement fails
 */
export async function migrateClickHouse(
  client: ClickHouseClient,
  rewrite: (sql: string) => string | string[] = (s) => s,
  source: { dir: string; table: string } = { dir: DIR, table: "schema_migrations" },
): Promise<string[]> {
  const { dir, table } = source;
  if (!/^\w+$/.test(table)) throw new Error(`migrations table name "${table}" is not a plain identifier`);
  await client.command({
    query: `CREATE TABLE IF NOT EXISTS ${table} (version UInt32, name String, applied_at DateTime64(3, 'UTC') DEFAULT now64(3)) ENGINE = MergeTree ORDER BY version`,
  });
  const rs = await client.query({ query: `SELECT version FROM ${table}`, format: "JSONEachRow" });
  const done = new Set((await rs.json<{ version: number | string }>()).map((r) => Number(r.version)));
  const files = (await readdir(dir)).filter((f) => FILE.test(f)).sort();
  const applied: string[] = [];
  for (const file of files) {
    const version = Number(FILE.exec(file)![1]);
    if (done.has(version)) continue;
    const sql = (await readFile(path.join(dir, file), "utf8")).replace(/^\s*--.*$/gm, "");
    const statements = sql
      .split(/;[ \t]*$/m)
      .map((x) => x.trim())
      .filter((x) => x !== "");
    for (const statement of statements.flatMap((x) => rewrite(x))) {
      try {
        await client.command({ query: statement });
      } catch (e) {
        throw new Error(`ClickHouse migration ${file} failed: ${(e as Error).message}`, { cause: e });
      }
    }
    await client.insert({ table, values: [{ version, name: file }], format: "JSONEachRow" });
    applied.push(file);
  }
  return applied;
}
