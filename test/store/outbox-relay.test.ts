/**
 * The outbox relay against real PostgreSQL and a real ClickHouse engine (docs/architecture.md "A
 * forge event, end to end" step 4): events leave the outbox only once ClickHouse has them; a failed
 * send is retried; a batch that reached ClickHouse without being acknowledged is not duplicated when it is sent again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClickHouseClient } from "../../services/activity-log/index.js";
import { createEventSink, internalEventRow } from "../../services/activity-log/index.js";
import {
  appendToOutbox,
  outboxSize,
  startOutboxRelay,
  withTransaction,
  type EventSink,
  type StoredEventRow,
} from "../../services/store/index.js";
import { embeddedClickHouse } from "../support/clickhouse.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";
import { testLogger } from "../support/logger.js";

let db: TestDatabase;
let ch: ClickHouseClient;
beforeAll(async () => {
  db = await freshDatabase();
  ch = await embeddedClickHouse();
});
afterAll(async () => {
  await ch?.close();
  await db?.drop();
});

const pauseEvent = (repository: string, reason: string) =>
  internalEventRow({
    type: "queue.pause.create",
    repository,
    pullRequest: null,
    baseRef: null,
    trigger: "API",
    receivedAt: null,
    metadata: { reason, created_by: { type: "user", id: 7, name: "octocat" }, created_by_staff: false },
  });

async function stored(repository: string): Promise<{ id: string; metadata: string }[]> {
  const rs = await ch.query({
    query: "SELECT toString(id) AS id, metadata FROM events WHERE repository = {r:String} ORDER BY id",
    query_params: { r: repository },
    format: "JSONEachRow",
  });
  return rs.json();
}

describe("the outbox relay", () => {
  it("moves events to ClickHouse in id order and empties the outbox", async () => {
    const ids = await withTransaction(db.pool, (c) =>
      appendToOutbox(c, [pauseEvent("o/moves", "one"), pauseEvent("o/moves", "two")]),
    );
    const relay = startOutboxRelay({
      pool: db.pool,
      sink: createEventSink(ch),
      logger: testLogger().logger,
      intervalMs: 60_000,
    });
    expect(await relay.drain()).toBe(true);
    await relay.stop();
    expect((await stored("o/moves")).map((r) => [r.id, JSON.parse(r.metadata).reason])).toEqual([
      [ids[0], "one"],
      [ids[1], "two"],
    ]);
    expect(await outboxSize(db.pool)).toBe(0);
  });

  it("keeps events in the outbox while the sink fails, and delivers them once it works", async () => {
    await withTransaction(db.pool, (c) => appendToOutbox(c, [pauseEvent("o/down", "while down")]));
    const real = createEventSink(ch);
    let up = false;
    const sink: EventSink = {
      insertEvents: (rows, opts) =>
        up ? real.insertEvents(rows, opts) : Promise.reject(new Error("connection refused")),
    };
    const { logger, warnings } = testLogger();
    const relay = startOutboxRelay({ pool: db.pool, sink, logger, intervalMs: 60_000 });
    expect(await relay.drain()).toBe(false);
    expect(await outboxSize(db.pool)).toBe(1);
    expect(warnings).toContain("event relay: the event store or the outbox did not answer; will retry");
    up = true;
    expect(await relay.drain()).toBe(true);
    await relay.stop();
    expect((await stored("o/down")).map((r) => JSON.parse(r.metadata).reason)).toEqual(["while down"]);
  });

  it("does not duplicate a batch that reached ClickHouse before its acknowledgement was lost", async () => {
    await withTransaction(db.pool, (c) =>
      appendToOutbox(c, [pauseEvent("o/lost-ack", "a"), pauseEvent("o/lost-ack", "b")]),
    );
    const real = createEventSink(ch);
    let attempts = 0;
    const sends: boolean[] = [];
    const sink: EventSink = {
      async insertEvents(rows: StoredEventRow[], opts) {
        sends.push(opts.mayExist);
        await real.insertEvents(rows, opts);
        if (++attempts === 1) throw new Error("timeout after the insert landed");
      },
    };
    const relay = startOutboxRelay({ pool: db.pool, sink, logger: testLogger().logger, intervalMs: 60_000 });
    expect(await relay.drain()).toBe(false);
    expect(await relay.drain()).toBe(true);
    await relay.stop();
    expect(sends).toEqual([false, true]);
    expect((await stored("o/lost-ack")).map((r) => JSON.parse(r.metadata).reason)).toEqual(["a", "b"]);
  });

  it("refuses an internal event whose metadata does not validate, so nothing is written", async () => {
    expect(() =>
      internalEventRow({
        type: "queue.pause.create",
        repository: "o/bad",
        pullRequest: null,
        baseRef: null,
        trigger: "API",
        receivedAt: null,
        metadata: { reason: "x" },
      }),
    ).toThrow(
      "invalid queue.pause.create event: event.metadata.created_by: is required; event.metadata.created_by_staff: is required",
    );
  });
});
