/**
 * PostgreSQL frozen (docs/reliability.md "Database outages"): every process of the test's own
 * cluster is stopped with SIGSTOP while the server process holds open connections to it, as a
 * stalled host or a hung disk does. A query on an open connection then gets no answer at all (no
 * error, no closed socket): readers get 503 within the API's query timeout instead of waiting for
 * the thaw, and after SIGCONT the API answers again on fresh connections, without a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_QUERY_TIMEOUT_MS } from "../../services/store/index.js";
import { eventually } from "../support/eventually.js";
import { startOwnPostgres, type OwnPostgres } from "../support/own-postgres.js";
import { restCall } from "../support/rest-client.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";

const STATUS = "/v1/repos/acme/frozen/merge-queue/status";

let pg: OwnPostgres;
let server: ServerProcess;
let frozen = false;

/** The status route's answer and how long it took, ms. */
async function timedStatus(): Promise<{ status: number; json: any; ms: number }> {
  const started = Date.now();
  const res = await restCall(server, "GET", STATUS);
  return { status: res.status, json: res.json, ms: Date.now() - started };
}

beforeAll(async () => {
  pg = await startOwnPostgres();
  server = await startServerProcess({ DATABASE_URL: pg.url });
  const res = await restCall(server, "POST", "/yardmaster.v1.ForgeService/CreateRepository", {
    owner: "acme",
    repository: "frozen",
  });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  // Warm the API's pool: the readers below run on connections opened before the freeze.
  const warm = await Promise.all([1, 2, 3, 4, 5].map(() => timedStatus()));
  for (const w of warm) expect(w.status).toBe(200);
  await pg.signal("SIGSTOP");
  frozen = true;
}, 120_000);

afterAll(async () => {
  if (frozen) await pg.signal("SIGCONT");
  await server?.stop();
  await pg?.destroy();
});

describe("PostgreSQL frozen with SIGSTOP under open connections", () => {
  it("answers readers 503 unavailable within the query timeout, more than the pool holds at once", async () => {
    // Twice the API pool's five connections: the later readers wait for a connection freed by the
    // timeout, or time out opening a new one against the frozen server, never for the thaw.
    const answers = await Promise.all(Array.from({ length: 10 }, () => timedStatus()));
    for (const a of answers) {
      expect(a.status).toBe(503);
      expect(a.json.code).toBe("unavailable");
      expect(a.json.message).toMatch(/^PostgreSQL/);
      expect(a.ms).toBeLessThan(3 * API_QUERY_TIMEOUT_MS);
    }
    expect(server.child.exitCode).toBeNull();
  }, 60_000);

  it("answers again after the thaw, without a restart, on every connection of the pool", async () => {
    await pg.signal("SIGCONT");
    frozen = false;
    await eventually(async () => expect((await timedStatus()).status).toBe(200), 30_000, 200);
    // No connection left waiting for an answer to a query from before the thaw: every reader of a
    // burst as large as the pool is answered, promptly.
    const burst = await Promise.all(Array.from({ length: 10 }, () => timedStatus()));
    for (const b of burst) {
      expect(b.status).toBe(200);
      expect(b.ms).toBeLessThan(API_QUERY_TIMEOUT_MS);
    }
  }, 60_000);
});
