/**
 * The embedded PostgreSQL supervised (docs/reliability.md "Database outages"): a real server
 * process started without DATABASE_URL runs PostgreSQL in its data directory; its postmaster is
 * killed (SIGKILL, the pid of `postmaster.pid`) and Yardmaster starts it again on the same data
 * directory and port, logs it, and serves again without being restarted. Requests meanwhile
 * answer 503, never 500.
 */
import { chmod, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isRunning } from "../../services/store/process-state.js";
import { eventually } from "../support/eventually.js";
import { createLocalRepository, restCall } from "../support/rest-client.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";

let server: ServerProcess;
let dataDir: string;

/** The postmaster's pid, from the first line of `postmaster.pid` in the embedded data directory. */
async function postmasterPid(): Promise<number> {
  return Number((await readFile(path.join(dataDir, "postgres", "postmaster.pid"), "utf8")).split("\n")[0]);
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "ym-faults-embedded-"));
  // As root, the embedded PostgreSQL runs under its own user, which must be able to enter the directory.
  await chmod(dataDir, 0o755);
  server = await startServerProcess({ DATABASE_URL: undefined, YARDMASTER_DATA_DIR: dataDir });
  await createLocalRepository(server, "acme/embedded");
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe("the embedded PostgreSQL's postmaster killed", () => {
  it("is started again by Yardmaster, which serves again without a restart (meanwhile 503)", async () => {
    const pause = "/v1/repos/acme/embedded/merge-queue/pause";
    expect((await restCall(server, "PUT", pause, { reason: "before the kill" })).status).toBe(200);
    const killed = await postmasterPid();
    process.kill(killed, "SIGKILL");
    await eventually(async () => expect(await isRunning(killed)).toBe(false), 10_000, 20);
    // Until the restart, requests answer 503 (never 500); then they are served again.
    const statuses = new Set<number>();
    await eventually(
      async () => {
        const res = await restCall(server, "GET", pause);
        statuses.add(res.status);
        if (res.status === 503) expect(res.headers.get("retry-after")).not.toBeNull();
        expect(res.status).toBe(200);
        expect(res.json.reason).toBe("before the kill");
      },
      60_000,
      100,
    );
    expect([...statuses].filter((s) => s !== 200 && s !== 503)).toEqual([]);
    await eventually(async () => expect((await fetch(`${server.url}/readyz`)).status).toBe(200), 30_000);
    const restarted = await postmasterPid();
    expect(restarted).not.toBe(killed);
    expect(await isRunning(restarted)).toBe(true);
    expect(server.child.exitCode).toBeNull();
    expect(server.output()).toContain("the embedded PostgreSQL's postmaster exited; restarting it");
  });
});
