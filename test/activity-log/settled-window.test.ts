/**
 * A listing without `received_to` ends its window where every event the service timed itself has
 * reached ClickHouse (services/activity-log/settled-time.ts): an event still in the outbox when the
 * first page is read lies after the pinned window, so walking the listing never skips it; it shows
 * in the next listing. Imported events (their own received_at) do not hold the window back.
 */
import { create, type JsonObject } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppendEventsRequestSchema } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { settledWindowEnd, UNCOMMITTED_GRACE_MS } from "../../services/activity-log/settled-time.js";
import { pauseCreateMetadata } from "./event-samples-controls.js";
import { startLogHarness, type LogHarness } from "./log-harness.js";

const REPO = { owner: "acme", repository: "settled" };
let h: LogHarness;
beforeAll(async () => {
  h = await startLogHarness("embedded");
});
afterAll(() => h?.close());

/** Appends one queue.pause.create event through the service, without relaying it. */
async function appendUnrelayed(receivedAtMs?: number): Promise<bigint> {
  const req = create(AppendEventsRequestSchema, {
    idempotencyKey: `settled-${Math.random()}`,
    events: [
      {
        type: "queue.pause.create",
        repository: "acme/settled",
        trigger: "Yardmaster",
        metadata: pauseCreateMetadata() as JsonObject,
        receivedAt:
          receivedAtMs === undefined
            ? undefined
            : { seconds: BigInt(Math.floor(receivedAtMs / 1000)), nanos: (receivedAtMs % 1000) * 1e6 },
      },
    ],
  });
  return (await h.service.appendEvents(req, undefined as never)).ids![0] as bigint;
}

describe("the default window of a listing", () => {
  it("ends before an event still in the outbox, which the next listing shows", async () => {
    const id = await appendUnrelayed();
    const [{ received_at: at }] = (
      await h.db.pool.query("SELECT received_at FROM event_outbox WHERE id = $1", [String(id)])
    ).rows;
    const first = await h.list({ ...REPO, perPage: 100 });
    expect(first.response.events.map((e) => e.id)).not.toContain(id);
    const pinnedTo = new URL(/<([^>]+)>; rel="first"/.exec(first.link)![1], "http://x").searchParams.get(
      "received_to",
    )!;
    expect(Date.parse(pinnedTo)).toBeLessThanOrEqual(at.getTime());

    expect(await h.relay.drain()).toBe(true);
    // The pinned listing stays as it was: the event is after its window, not in a page before its first.
    const again = await h.list({
      ...REPO,
      perPage: 100,
      receivedTo: {
        seconds: BigInt(Math.floor(Date.parse(pinnedTo) / 1000)),
        nanos: (Date.parse(pinnedTo) % 1000) * 1e6,
      },
    });
    expect(again.response.events.map((e) => e.id)).not.toContain(id);
    // A new listing, once the event is relayed and the grace for uncommitted writes has passed, shows it.
    await new Promise((r) => setTimeout(r, UNCOMMITTED_GRACE_MS + 50));
    const next = await h.list({ ...REPO, perPage: 100 });
    expect(next.response.events.map((e) => e.id)).toContain(id);
  });

  it("is not held back by an imported event waiting in the outbox, nor beyond the grace", async () => {
    const now = Date.now();
    await appendUnrelayed(now - 3_600_000);
    const end = await settledWindowEnd(h.db.pool, now, now);
    expect(end).toBe(now - UNCOMMITTED_GRACE_MS);
    expect(await h.relay.drain()).toBe(true);
    expect(await settledWindowEnd(h.db.pool, now - 60_000, now)).toBe(now - 60_000);
  });
});
