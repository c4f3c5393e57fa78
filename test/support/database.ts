/**
 * A fresh, migrated PostgreSQL database for one test file, in the run's embedded cluster
 * (postgres-global-setup.ts). Each file gets its own database, so files never share state.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";

export interface TestDatabase {
  /** Database name (`ym_<random>`). */
  name: string;
  url: string;
  pool: pg.Pool;
  /** Closes the pool (unless already closed) and drops the database. */
  drop(): Promise<void>;
}

/**
 * Creates a database named `ym_<random>`. `migrated` (default true): a copy of the run's migrated
 * template (postgres-global-setup.ts); false: an empty database, for code that migrates by itself.
 * `template`: a copy of that database instead (nobody may be connected to it).
 */
export async function freshDatabase(opts: { migrated?: boolean; template?: string } = {}): Promise<TestDatabase> {
  const admin = inject("pgUrl");
  const name = `ym_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  const template = opts.template ?? (opts.migrated === false ? null : inject("pgTemplate"));
  await client.query(template === null ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE ${template}`);
  await client.end();
  const url = admin.replace(/\/postgres$/, `/${name}`);
  const pool = new pg.Pool({ connectionString: url, max: 5 });
  // pg-pool resolves end() before its clients have closed; the forced DROP DATABASE then ends them
  // with an error the pool re-emits. Query errors reject their promises and never reach here.
  pool.on("error", () => {});
  return {
    name,
    url,
    pool,
    async drop() {
      if (!pool.ended) await pool.end();
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
