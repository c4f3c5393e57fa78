/**
 * ClickHouse stopped, slow to drain and frozen (docs/reliability.md "ClickHouse outages and the
 * log's lag"; docs/activity-log.md "The log's lag"): a real server process reads and writes the
 * activity log through `yardmaster clickhouse-http` (ClickHouse's HTTP interface over an embedded
 * directory) in a process of its own, which the tests kill and start again on the same port, or
 * freeze with SIGSTOP. Events are written with AppendEvents (admin key) through the outbox.
 */
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOG_LAG_HEADER, LOG_READ_TIMEOUT_MS } from "../../services/activity-log/index.js";
import { RELAY_LOCK } from "../../services/store/index.js";
import { startClickHouseHttp, type ClickHouseHttpProcess } from "../support/clickhouse-http-process.js";
import { eventually } from "../support/eventually.js";
import { restCall } from "../support/rest-client.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";

let ch: ClickHouseHttpProcess;
let server: ServerProcess;
let batch = 0;

/** Writes `reasons` as queue.pause.create events of acme/`repo` (one AppendEvents call). */
async function append(repo: string, reasons: string[]): Promise<void> {
  const events = reasons.map((reason) => ({
    type: "queue.pause.create",
    repository: `acme/${repo}`,
    trigger: "API",
    metadata: { reason, created_by: { type: "user", id: 7, name: "octocat" }, created_by_staff: false },
  }));
  const body = { idempotency_key: `faults-${batch++}`, events };
  const res = await restCall(server, "POST", "/yardmaster.v1.ActivityLogService/AppendEvents", body);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
}

const logs = (repo: string) =>
  restCall(server, "GET", `/v1/repos/acme/${repo}/logs?per_page=100&received_from=2000-01-01T00:00:00Z`);

/** The reasons of every event of acme/`repo` in the log, oldest first. */
async function logged(repo: string): Promise<string[]> {
  const res = await logs(repo);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.events.map((e: any) => e.metadata.reason).reverse();
}

/** GET /readyz with the time it took, ms. */
async function readyz(): Promise<{ status: number; body: any; ms: number }> {
  const started = Date.now();
  const res = await fetch(`${server.url}/readyz`);
  return { status: res.status, body: await res.json(), ms: Date.now() - started };
}

beforeAll(async () => {
  ch = await startClickHouseHttp();
  server = await startServerProcess({ CLICKHOUSE_URL: ch.url });
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await ch?.destroy();
});

describe("ClickHouse stopped", () => {
  it("answers /logs 503 with Retry-After, keeps the events, delivers each once soon after its return", async () => {
    await append("stopped", ["before"]);
    await eventually(async () => expect(await logged("stopped")).toEqual(["before"]), 30_000);
    await ch.stop();
    const during = ["during 1", "during 2", "during 3"];
    await append("stopped", during);
    const written = Date.now();

    const res = await logs("stopped");
    expect(res.status).toBe(503);
    expect(res.json.code).toBe("unavailable");
    expect(res.json.message).toMatch(/^ClickHouse does not answer; retry in \d+ s/);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    const ready = await readyz();
    expect(ready.ms).toBeLessThan(2000);
    expect(ready.status).toBe(503);
    expect(ready.body.checks).toMatchObject({ postgresql: "ok" });
    expect(ready.body.checks.clickhouse).not.toBe("ok");
    expect(ready.body.outbox.events_waiting).toBe(during.length);

    // Long enough that a relay backing off without a cap (tries 2, 6, 14 and 30 s after the first
    // failure) would next try 10 s or more after the return.
    await sleep(Math.max(0, 15_000 - (Date.now() - written)));
    await ch.start();
    const back = Date.now();
    await eventually(async () => expect(await logged("stopped")).toEqual(["before", ...during]), 30_000, 100);
    // The relay tries again within 2 s of the return (RELAY_MAX_DELAY_MS).
    expect(Date.now() - back).toBeLessThan(4000);
    expect((await readyz()).body).toMatchObject({ status: "ready", outbox: { events_waiting: 0 } });
  });
});

describe("events on their way", () => {
  it("shows the lag on /readyz and as a header of log reads until they arrive", async () => {
    await eventually(async () => expect((await readyz()).status).toBe(200), 30_000);
    // A session holding the relay's lock (as a relay in another process would) keeps new events in the outbox.
    const holder = new pg.Client({ connectionString: server.db.url });
    await holder.connect();
    try {
      await holder.query("SELECT pg_advisory_lock($1::bigint)", [RELAY_LOCK.toString()]);
      await append("lag", ["waiting"]);
      const ready = await readyz();
      expect(ready.status).toBe(200);
      expect(ready.body.outbox.events_waiting).toBe(1);
      expect(ready.body.outbox.oldest_age_seconds).toBeGreaterThanOrEqual(0);
      const list = await logs("lag");
      expect(list.status).toBe(200);
      expect(Number(list.headers.get(LOG_LAG_HEADER))).toBeGreaterThanOrEqual(1);
      const aggregate = await restCall(server, "GET", "/v1/repos/acme/lag/logs/aggregate");
      expect(Number(aggregate.headers.get(LOG_LAG_HEADER))).toBeGreaterThanOrEqual(1);
      const connect = await restCall(server, "POST", "/yardmaster.v1.ActivityLogService/ListLogs", {
        owner: "acme",
        repository: "lag",
      });
      expect(Number(connect.headers.get(LOG_LAG_HEADER))).toBeGreaterThanOrEqual(1);
    } finally {
      await holder.end();
    }
    await eventually(async () => expect(await logged("lag")).toEqual(["waiting"]), 30_000, 100);
    expect((await logs("lag")).headers.get(LOG_LAG_HEADER)).toBeNull();
  });
});

describe("ClickHouse frozen (SIGSTOP)", () => {
  it("answers /readyz within 2 s and /logs 503 within the read deadline, then recovers on SIGCONT", async () => {
    ch.signal("SIGSTOP");
    try {
      const ready = await readyz();
      expect(ready.ms).toBeLessThan(2000);
      expect(ready.status).toBe(503);
      expect(ready.body.checks.clickhouse).toMatch(/did not answer within/);
      const started = Date.now();
      const res = await logs("stopped");
      expect(Date.now() - started).toBeLessThan(LOG_READ_TIMEOUT_MS + 1500);
      expect(res.status).toBe(503);
      expect(res.json.code).toBe("unavailable");
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      ch.signal("SIGCONT");
    }
    await eventually(async () => expect((await readyz()).status).toBe(200), 30_000);
    expect(await logged("stopped")).toEqual(["before", "during 1", "during 2", "during 3"]);
  });
});
