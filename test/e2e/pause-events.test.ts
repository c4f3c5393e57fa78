/**
 * The pause slice end to end (issue: foundation §8): both endpoint families share one pause
 * state; queue.pause.create / update / delete with their Actor travel through the outbox into
 * ClickHouse; with ClickHouse unreachable a PUT still succeeds and its event arrives once
 * ClickHouse is back. ClickHouse is reached by URL here (the HTTP interface over the embedded
 * engine in its own process), so the test can read it and can take it away.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClickHouseClient, type ClickHouseClient } from "../../services/activity-log/index.js";
import { startClickHouseHttp, type ClickHouseHttpProcess } from "../support/clickhouse-http-process.js";
import { eventually } from "../support/eventually.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";
import { createLocalRepository } from "../support/rest-client.js";

let clickhouse: ClickHouseHttpProcess;
let server: ServerProcess;
let reader: ClickHouseClient;

beforeAll(async () => {
  clickhouse = await startClickHouseHttp();
  server = await startServerProcess({ CLICKHOUSE_URL: clickhouse.url });
  await createLocalRepository(server, "acme/paused");
  reader = createClickHouseClient({ url: clickhouse.url });
});
afterAll(async () => {
  await reader?.close();
  await server?.stop();
  await clickhouse?.destroy();
});

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}/v1/repos/acme/paused${path}`, {
    method,
    headers: { authorization: `Bearer ${server.adminKey}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

async function loggedEvents(): Promise<
  { type: string; trigger: string; pull_request: string; base_ref: string; outcome: string; metadata: any }[]
> {
  const rs = await reader.query({
    query:
      "SELECT type, trigger, toString(pull_request) AS pull_request, base_ref, outcome, metadata FROM events WHERE repository = 'acme/paused' ORDER BY id",
    format: "JSONEachRow",
  });
  return (await rs.json<any>()).map((r) => ({ ...r, metadata: JSON.parse(r.metadata) }));
}

describe("pausing the merge queue", () => {
  it("shares one pause state between the two endpoint families", async () => {
    expect((await call("PUT", "/merge-queue/pause", { reason: "release 1.0" })).status).toBe(200);
    expect((await call("GET", "/queue/pause")).json.queue_pause).toEqual([
      { reason: "release 1.0", pause_date: expect.any(String) },
    ]);
    const updated = await call("PUT", "/queue/pause", { reason: "release 1.0, still" });
    expect(updated.json.queue_pause[0].reason).toBe("release 1.0, still");
    const state = await call("GET", "/merge-queue/pause");
    expect(state.json).toEqual({
      paused: true,
      reason: "release 1.0, still",
      paused_at: updated.json.queue_pause[0].pause_date,
    });
    expect((await call("POST", "/queue/pause/delete")).status).toBe(204);
    expect((await call("GET", "/merge-queue/pause")).json).toEqual({ paused: false, reason: null, paused_at: null });
    expect((await call("DELETE", "/merge-queue/pause")).status).toBe(404);
  });

  it("writes queue.pause.create, update and delete with their actor to ClickHouse", async () => {
    const events = await eventually(async () => {
      const e = await loggedEvents();
      expect(e).toHaveLength(3);
      return e;
    });
    const actor = { type: "application", id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: "admin application key" };
    expect(events).toEqual([
      {
        type: "queue.pause.create",
        trigger: "API",
        pull_request: "-1",
        base_ref: "",
        outcome: "neutral",
        metadata: { reason: "release 1.0", created_by: actor, created_by_staff: false },
      },
      {
        type: "queue.pause.update",
        trigger: "API",
        pull_request: "-1",
        base_ref: "",
        outcome: "neutral",
        metadata: { reason: "release 1.0, still", updated_by: actor, updated_by_staff: false },
      },
      {
        type: "queue.pause.delete",
        trigger: "API",
        pull_request: "-1",
        base_ref: "",
        outcome: "neutral",
        metadata: { deleted_by: actor, deleted_by_staff: false },
      },
    ]);
  });

  it("still pauses while ClickHouse is unreachable, and the event arrives once it is back", async () => {
    await clickhouse.stop();
    const put = await call("PUT", "/merge-queue/pause", { reason: "ClickHouse is down" });
    expect(put.status).toBe(200);
    expect((await call("GET", "/merge-queue/pause")).json.paused).toBe(true);
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    await clickhouse.start();
    const events = await eventually(async () => {
      const e = await loggedEvents();
      expect(e).toHaveLength(4);
      return e;
    }, 100_000);
    expect(events[3]).toMatchObject({ type: "queue.pause.create", metadata: { reason: "ClickHouse is down" } });
  }, 150_000);
});
