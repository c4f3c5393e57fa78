/**
 * Numbered, forward-only migrations of PostgreSQL (`migrations/NNNN_name.sql`), applied with
 * node-pg-migrate: at start (`yardmaster serve`) and by `yardmaster migrate`. All pending files run
 * in one transaction under node-pg-migrate's advisory lock, so concurrent starters wait.
 */
import { fileURLToPath } from "node:url";
import path from "node:path";
import pg from "pg";
import { runner } from "node-pg-migrate";

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/**
 * Applies pending migrations.
 * @returns names of the migrations applied now (empty when up to date)
 */
export async function migrate(url: string, log: (line: string) => void = () => {}): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  // A connection that dies mid-migration rejects the query in progress (the transaction is rolled
  // back); its `error` event must not also end the process (docs/reliability.md "Database outages").
  client.on("error", (e) => log(`connection error: ${e.message}`));
  await client.connect();
  try {
    const applied = await runner({
      dbClient: client,
      dir: DIR,
      direction: "up",
      migrationsTable: "schema_migrations",
      checkOrder: true,
      singleTransaction: true,
      advisoryLockMode: "wait",
      log: () => {},
      logger: {
        debug: () => {},
        info: (m: string) => log(m),
        warn: (m: string) => log(m),
        error: (m: string) => log(m),
      },
    });
    return applied.map((m) => m.name);
  } finally {
    await client.end();
  }
}
