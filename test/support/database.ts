/**
 * A fresh, migrated PostgreSQL database for one test file, in the run's embedded cluster
 * (postgres-global-setup.ts). Each file gets its own database, so files never share state.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { migrate } from "../../services/store/index.js";

export interface TestDatabase {
  url: string;
  pool: pg.Pool;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

/** Creates a database named `ym_<random>`; `migrated` (default true) applies the migrations. */
export async function freshDatabase(opts: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const admin = inject("pgUrl");
  const name = `ym_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = admin.replace(/\/postgres$/, `/${name}`);
  if (opts.migrated !== false) await migrate(url);
  const pool = new pg.Pool({ connectionString: url, max: 5 });
  // pg-pool resolves end() before its clients have closed; the forced DROP DATABASE then ends them
  // with an error the pool re-emits. Query errors reject their promises and never reach here.
  pool.on("error", () => {});
  return {
    url,
    pool,
    async drop() {
      await pool.end();
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
