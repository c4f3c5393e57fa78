/**
 * One embedded PostgreSQL cluster per test run (DESIGN.md §5), in a temporary directory; test files
 * create their own database in it (database.ts). The URL reaches tests through `inject("pgUrl")`.
 */
import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../services/store/index.js";

declare module "vitest" {
  export interface ProvidedContext {
    pgUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(os.tmpdir(), "ym-test-pg-"));
  // As root, PostgreSQL runs under its own user, which must be able to enter the directory.
  await chmod(dir, 0o755);
  const server = await startEmbeddedPostgres(path.join(dir, "postgres"));
  project.provide("pgUrl", server.url);
  return async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
