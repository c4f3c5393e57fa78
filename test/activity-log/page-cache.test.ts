/**
 * The `/logs` answer cache of the embedded engine (services/activity-log/page-cache.ts) answers
 * exactly what ClickHouse answers: random sequences of appends (relayed at once or later, at
 * times before, inside and after the window's end), clock moves, first pages, cursor pages and
 * bursts of concurrent identical requests, each answered by a service with the cache and one
 * without over the same data, must be equal — events, page sizes and Link headers. The clock also
 * moves back (a default window's end moves back when an older event waits in the outbox). Events relayed
 * after a page was cached show in the next listing whose window holds them.
 */
import { create, toJson, type JsonObject } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AppendEventsRequestSchema,
  ListLogsRequestSchema,
  ListLogsResponseSchema,
} from "../../gen/yardmaster/v1/activity_log_pb.js";
import {
  createActivityLogService,
  createEventSink,
  createLogPageCache,
  type ClickHouseClient,
} from "../../services/activity-log/index.js";
import { startOutboxRelay, type OutboxRelay } from "../../services/store/index.js";
import { countingPageQueries, embeddedClickHouse } from "../support/clickhouse.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";
import { testLogger } from "../support/logger.js";
import { commentMetadata, labelMetadata, mergeMetadata } from "./event-samples-actions.js";
import { enterMetadata } from "./event-samples-queue.js";
import { linkCursor } from "./log-harness.js";

const TYPES = {
  "action.label": labelMetadata,
  "action.comment": commentMetadata,
  "action.queue.enter": enterMetadata,
  "action.merge": mergeMetadata,
};
const FILTERS: Record<string, unknown>[] = [
  {},
  { eventType: ["action.label"] },
  { pullRequest: [2n] },
  { baseRef: "main" },
  { notEventType: ["action.comment"], outcome: [] },
  { eventType: ["action.label", "action.merge"], pullRequest: [2n] },
  { notPullRequest: [1n], baseRef: "release" },
];

let db: TestDatabase;
let clickhouse: ClickHouseClient;
let relay: OutboxRelay;
let clock = 0;
let pageQueries: () => number;
let cached: ReturnType<typeof createActivityLogService>;
let plain: ReturnType<typeof createActivityLogService>;

beforeAll(async () => {
  db = await freshDatabase();
  clickhouse = await embeddedClickHouse();
  // The cached service's page queries are counted, to know the cache answered some pages itself.
  const counting = countingPageQueries(clickhouse);
  pageQueries = counting.pageQueries;
  const pages = createLogPageCache(counting.client);
  const sink = createEventSink(clickhouse, "events", pages.sent);
  relay = startOutboxRelay({ pool: db.pool, sink, logger: testLogger().logger, intervalMs: 3_600_000 });
  const common = {
    db: db.pool,
    eventsWritten: () => {},
    cursorSecret: "page cache test secret, 32 bytes!",
    now: () => new Date(clock),
  };
  cached = createActivityLogService({ ...common, clickhouse: counting.client, pages });
  plain = createActivityLogService({ ...common, clickhouse });
});
afterAll(async () => {
  await relay?.stop();
  await clickhouse?.close();
  await db?.drop();
});

type Step =
  | {
      kind: "append";
      events: { type: keyof typeof TYPES; pr: number; main: boolean; offsetMs: number }[];
      relayNow: boolean;
    }
  | { kind: "relay" }
  | { kind: "tick"; ms: number }
  | { kind: "list"; filter: number; perPage: number; useCursor: boolean; burst: boolean };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("append" as const),
      relayNow: fc.boolean(),
      events: fc.array(
        fc.record({
          type: fc.constantFrom(...(Object.keys(TYPES) as (keyof typeof TYPES)[])),
          pr: fc.integer({ min: 1, max: 3 }),
          main: fc.boolean(),
          // Around the window's end, and around its start a day before (where the start moving back adds rows).
          offsetMs: fc.oneof(
            fc.integer({ min: -5000, max: 3000 }),
            fc.integer({ min: -86_403_000, max: -86_397_000 }),
            fc.constantFrom(0, 1, -1, -90_000_000),
          ),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "relay" as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("tick" as const),
      ms: fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: -3000, max: 3000 })),
    }),
  },
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant("list" as const),
      filter: fc.nat({ max: FILTERS.length - 1 }),
      perPage: fc.constantFrom(2, 3, 10),
      useCursor: fc.boolean(),
      burst: fc.boolean(),
    }),
  },
);

let runs = 0;
let keys = 0;

/** Runs the steps on a repository of its own; every list is answered alike by both services. */
async function run(steps: Step[]): Promise<void> {
  const repo = { owner: `run${++runs}`, repository: "cache" };
  clock = Date.now() - 3_600_000;
  const cursors: { init: Record<string, unknown>; cursor: string }[] = [];
  const list = async (service: typeof cached, init: Record<string, unknown>) => {
    const ctx = { responseHeader: new Headers() };
    const res = create(
      ListLogsResponseSchema,
      await service.listLogs(create(ListLogsRequestSchema, init as never), ctx as never),
    );
    return { body: toJson(ListLogsResponseSchema, res), link: ctx.responseHeader.get("link") ?? "" };
  };
  for (const s of steps) {
    if (s.kind === "tick") clock += s.ms;
    else if (s.kind === "relay") expect(await relay.drain()).toBe(true);
    else if (s.kind === "append") {
      const events = s.events.map((e) => ({
        type: e.type,
        repository: `${repo.owner}/${repo.repository}`,
        pullRequest: BigInt(e.pr),
        baseRef: e.main ? "main" : "release",
        trigger: "test",
        receivedAt: timestampFromMs(clock + e.offsetMs),
        metadata: TYPES[e.type]() as JsonObject,
      }));
      await cached.appendEvents(
        create(AppendEventsRequestSchema, { idempotencyKey: `cache-${++keys}`, events }),
        undefined as never,
      );
      if (s.relayNow) expect(await relay.drain()).toBe(true);
    } else {
      // A cursor is bound to its listing's filters: it is used with them.
      const base = { ...repo, ...FILTERS[s.filter], perPage: s.perPage };
      const from = s.useCursor && cursors.length > 0 ? cursors[cursors.length - 1] : undefined;
      const init = from ? { ...from.init, cursor: from.cursor } : base;
      const answers = await Promise.all(Array.from({ length: s.burst ? 4 : 1 }, () => list(cached, init)));
      const expected = await list(plain, init);
      for (const a of answers) expect(a).toEqual(expected);
      for (const rel of ["next", "prev"] as const) {
        const c = linkCursor(expected.link, rel);
        if (c) cursors.push({ init: { ...init, cursor: undefined }, cursor: c });
      }
    }
  }
}

describe("the /logs answer cache", () => {
  it("answers every page exactly as ClickHouse does, whatever was relayed in between", async () => {
    let lists = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 120, maxLength: 120 }), async (steps) => {
        lists += steps.filter((s) => s.kind === "list").reduce((n, s) => n + (s.kind === "list" && s.burst ? 4 : 1), 0);
        await run(steps);
      }),
      { numRuns: 4, seed: 2111, endOnFailure: true },
    );
    // The cache answered a good share of the pages itself (the property would hold without it).
    expect(pageQueries()).toBeLessThan(lists * 0.7);
  });

  it("shows an event relayed after a page was cached in the next listing that holds it", async () => {
    const repo = { owner: "late", repository: "cache" };
    clock = Date.now() - 3_600_000;
    const append = (offsetMs: number) =>
      cached.appendEvents(
        create(AppendEventsRequestSchema, {
          idempotencyKey: `late-${++keys}`,
          events: [
            {
              type: "action.label",
              repository: "late/cache",
              trigger: "test",
              receivedAt: timestampFromMs(clock + offsetMs),
              metadata: labelMetadata() as JsonObject,
            },
          ],
        }),
        undefined as never,
      );
    await append(-1000);
    await relay.drain();
    const ids = async () =>
      (await cached.listLogs(create(ListLogsRequestSchema, { ...repo, perPage: 10 }), undefined as never)).events!.map(
        (e) => e.id,
      );
    const first = await ids();
    expect(first).toHaveLength(1);
    // Relayed later: one inside the cached window, one just after its end that the clock then passes.
    const [inside] = (await append(-500)).ids!;
    const [after] = (await append(5)).ids!;
    await relay.drain();
    expect(await ids()).toEqual([inside, ...first]);
    clock += 10;
    expect(await ids()).toEqual([after, inside, ...first]);
  });

  it("shows the events at the older start of a window that moved back", async () => {
    const repo = { owner: "back", repository: "cache" };
    const start = Date.now() - 3_600_000;
    clock = start;
    const [old] = (
      await cached.appendEvents(
        create(AppendEventsRequestSchema, {
          idempotencyKey: `back-${++keys}`,
          events: [
            {
              type: "action.label",
              repository: "back/cache",
              trigger: "test",
              receivedAt: timestampFromMs(start - 86_400_000 + 500),
              metadata: labelMetadata() as JsonObject,
            },
          ],
        }),
        undefined as never,
      )
    ).ids!;
    await relay.drain();
    const ids = async () =>
      (await cached.listLogs(create(ListLogsRequestSchema, { ...repo, perPage: 10 }), undefined as never)).events!.map(
        (e) => e.id,
      );
    clock = start + 1000;
    expect(await ids()).toEqual([]);
    // The window's end moves back a second (as when an older event waits in the outbox): its start
    // now holds the old event.
    clock = start;
    expect(await ids()).toEqual([old]);
  });
});
