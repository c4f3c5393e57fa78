/**
 * Crash recovery with the embedded PostgreSQL (the default when DATABASE_URL is unset): a server
 * killed outright leaves its postmaster running on the data directory; the next start stops that
 * orphan and starts its own (services/store/orphaned-postgres.ts). A postmaster whose server is
 * still running is not touched: the start is refused with an error naming it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmod, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "../../services/store/embedded-postgres.js";
import { eventually } from "../support/eventually.js";
import { isRunning } from "../../services/store/process-state.js";

let dir: string | undefined;
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Starts the child server process on `dataDir` and resolves once its PostgreSQL is ready. */
async function serverWithPostgres(dataDir: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, "../support/embedded-postgres-child.ts"), dataDir],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => d.toString().includes("ready") && resolve());
    child.once("exit", (code) => reject(new Error(`the child exited with ${code} before its PostgreSQL was ready`)));
  });
  return child;
}

describe("the embedded PostgreSQL after a crash", () => {
  it("refuses a data directory a running server uses, and takes over one a killed server left", {
    timeout: 240_000,
  }, async () => {
    dir = await mkdtemp(path.join(tmpdir(), "ym-orphan-"));
    // As root the server runs as its own OS user, which must reach the data directory.
    await chmod(dir, 0o755);
    const dataDir = path.join(dir, "postgres");
    const child = await serverWithPostgres(dataDir);
    const orphan = Number((await readFile(path.join(dataDir, "postmaster.pid"), "utf8")).split("\n")[0]);

    await expect(startEmbeddedPostgres(dataDir)).rejects.toThrow(
      /is in use by a running server \(postmaster \d+, started by process \d+\)/,
    );
    expect(await isRunning(orphan)).toBe(true);

    child.kill("SIGKILL");
    await eventually(async () => expect(child.exitCode !== null || child.signalCode !== null).toBe(true), 10_000, 50);
    expect(await isRunning(orphan)).toBe(true);

    const server = await startEmbeddedPostgres(dataDir);
    try {
      expect(await isRunning(orphan)).toBe(false);
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      expect((await client.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
      await client.end();
    } finally {
      await server.stop();
    }
  });
});
