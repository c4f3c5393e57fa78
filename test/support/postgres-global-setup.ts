/**
 * One embedded PostgreSQL cluster per test run (docs/architecture.md "How it is tested"), in a
 * temporary directory; test files create their own database in it (database.ts). The URL reaches
 * tests through `inject("pgUrl")`. The migrations are applied once, to a template database
 * (`inject("pgTemplate")`) that each migrated test database is copied from: a copy takes ~30 ms
 * where migrating takes ~120 ms, and the forge tests create one per test.
 */
import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import pg from "pg";
import { migrate, startEmbeddedPostgres } from "../../services/store/index.js";

declare module "vitest" {
  export interface ProvidedContext {
    pgUrl: string;
    /** Name of the migrated database that test databases are created from (never connected to). */
    pgTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(os.tmpdir(), "ym-test-pg-"));
  // As root, PostgreSQL runs under its own user, which must be able to enter the directory.
  await chmod(dir, 0o755);
  const server = await startEmbeddedPostgres(path.join(dir, "postgres"));
  project.provide("pgUrl", server.url);
  const template = "ym_template";
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${template}`);
  await admin.end();
  // migrate() closes its connection: CREATE DATABASE ... TEMPLATE refuses a template in use.
  await migrate(server.url.replace(/\/postgres$/, `/${template}`));
  project.provide("pgTemplate", template);
  return async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
