/**
 * WatchLogs end to end (docs/activity-log.md "Live tail"; docs/api.md "Streams"), one real server
 * process with its PostgreSQL and embedded ClickHouse:
 * - a tail resumed from the last cursor it received — across a server restart, events appended
 *   meanwhile — delivers every event exactly once, in order;
 * - a client that never reads does not grow the server's buffers: `/readyz` `streams` counters stay
 *   within the per-watcher limit while thousands of events arrive, and the watcher is dropped.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ActivityLogService, type WatchLogsResponse } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { restCall } from "../support/rest-client.js";
import { eventually } from "../support/eventually.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";
import { collect, connectClient, openSse } from "../support/stream-clients.js";

/** Buffer limit and stall time of the server under test (LIVE_BUFFER_MESSAGES, LIVE_STALL_MS). */
const BUFFER = 16;
let server: ServerProcess;
let key = 0;

beforeAll(async () => {
  server = await startServerProcess({ LIVE_BUFFER_MESSAGES: String(BUFFER), LIVE_STALL_MS: "4000" });
});
afterAll(async () => {
  await server?.stop();
});

/** Appends `n` queue.pause.create events to acme/shop (AppendEvents over Connect JSON); returns their ids. */
async function append(n: number, reason = "tail", repository = "acme/shop"): Promise<string[]> {
  const events = Array.from({ length: n }, (_v, i) => ({
    type: "queue.pause.create",
    repository,
    trigger: "@tester",
    metadata: { reason: `${reason} ${i}`, created_by: { type: "user", id: 1, name: "ada" }, created_by_staff: false },
  }));
  const res = await fetch(`${server.url}/yardmaster.v1.ActivityLogService/AppendEvents`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/json" },
    body: JSON.stringify({ idempotency_key: `tail-${++key}`, events }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { ids: string[] }).ids;
}

/**
 * Resolves once the server holds exactly `n` open streams (GET /readyz `streams.watchers`): a
 * stream without a cursor starts at the instant the server opens it, so a test appends only after.
 */
async function streamsOpen(n: number): Promise<void> {
  await eventually(
    async () => expect((await restCall(server, "GET", "/readyz")).json.streams.watchers).toBe(n),
    20_000,
    50,
  );
}

describe("WatchLogs", () => {
  it("resumes from a cursor across a server restart with every event exactly once", async () => {
    const req = { owner: "acme", repository: "shop", eventType: ["queue.pause.create"] };
    const first: WatchLogsResponse[] = [];
    const ac = new AbortController();
    await streamsOpen(0);
    const watching = collect(
      connectClient(ActivityLogService, server.url, server.adminKey).watchLogs(req, { signal: ac.signal }),
      first,
    );
    await streamsOpen(1);
    const a = [...(await append(3, "a")), ...(await append(2, "a"))];
    await eventually(async () => expect(first.map((m) => String(m.event!.id))).toEqual(a), 20_000, 50);
    ac.abort();
    await watching;
    const cursor = first.at(-1)!.cursor;

    const b = await append(4, "b");
    await server.restart();
    const c = await append(3, "c");
    // Resumed over server-sent events, as a browser's EventSource does after a reconnect.
    const sse = await openSse(
      `${server.url}/v1/repos/acme/shop/logs:watch?event_type=queue.pause.create`,
      server.adminKey,
      cursor,
    );
    expect(sse.status).toBe(200);
    const d = await append(1, "d");
    // The last event appended arrived: everything before it had its chance to arrive too.
    const ids = () => sse.events.map((e) => String(JSON.parse(e.data).event.id));
    await eventually(async () => expect(ids()).toContain(d[0]), 20_000, 50);
    sse.close();
    expect(ids()).toEqual([...b, ...c, ...d]);
    expect(sse.events.every((e) => e.id === JSON.parse(e.data).cursor)).toBe(true);
  }, 90_000);

  it("refuses a cursor presented with other filters, naming cursor", async () => {
    const got: WatchLogsResponse[] = [];
    const ac = new AbortController();
    const client = connectClient(ActivityLogService, server.url, server.adminKey);
    await streamsOpen(0);
    const watching = collect(client.watchLogs({ owner: "acme", repository: "shop" }, { signal: ac.signal }), got);
    await streamsOpen(1);
    await append(1, "e");
    await eventually(async () => expect(got.length).toBeGreaterThan(0), 20_000, 50);
    ac.abort();
    await watching;
    const sse = await openSse(
      `${server.url}/v1/repos/acme/shop/logs:watch?event_type=queue.pause.delete`,
      server.adminKey,
      got[0].cursor,
    );
    expect(sse.status).toBe(422);
    expect((sse.body as { details: { field?: string }[] }).details[0]).toMatchObject({ field: "cursor" });
  }, 60_000);

  it("keeps a client that never reads within its buffer, then drops it", async () => {
    const before = (await restCall(server, "GET", "/readyz")).json.streams;
    // A raw HTTP/1.1 request whose socket is never read.
    const socket = net.connect(server.port, "127.0.0.1");
    await new Promise((r) => socket.once("connect", r));
    socket.pause();
    socket.write(
      `GET /v1/repos/acme/slow/logs:watch HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${server.adminKey}\r\n\r\n`,
    );
    await eventually(
      async () => expect((await restCall(server, "GET", "/readyz")).json.streams.watchers).toBe(before.watchers + 1),
      10_000,
      50,
    );
    // Events of about 4 KiB each: ~8 MiB in all, far beyond what the socket buffers hold.
    const most = { messages: 0, bytes: 0 };
    const big = "x".repeat(4000);
    for (let i = 0; i < 20; i++) {
      await append(100, big, "acme/slow");
      const s = (await restCall(server, "GET", "/readyz")).json.streams;
      most.messages = Math.max(most.messages, s.buffered_messages);
      most.bytes = Math.max(most.bytes, s.buffered_bytes);
    }
    // The watcher's buffer filled (the client did not read) and never held more than its limit.
    expect(most.messages).toBeGreaterThan(0);
    expect(most.messages).toBeLessThanOrEqual(BUFFER);
    expect(most.bytes).toBeLessThanOrEqual(BUFFER * 5000);
    // It is then dropped: slot and buffer released.
    await eventually(async () => {
      const s = (await restCall(server, "GET", "/readyz")).json.streams;
      expect(s).toMatchObject({ watchers: before.watchers, buffered_messages: 0, buffered_bytes: 0 });
    }, 30_000);
    socket.destroy();
  }, 90_000);
});
