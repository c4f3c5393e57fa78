/**
 * The `/logs` answer cache (services/activity-log/page-cache.ts) keeps a filtered page when the
 * events stored since cannot match its filters: a page filtered on one event type, pull request or
 * base ref is answered from the cache after events of another were stored inside its window or
 * where its default window's end moved to, and read again (showing them) after an event it
 * selects. What the record forgot, or an event whose kind cannot be told, drops the page. Every
 * answer equals what ClickHouse answers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createEventSink,
  createLogPageCache,
  type ClickHouseClient,
  type LogPageCache,
} from "../../services/activity-log/index.js";
import type { LogFilters, LogWindow } from "../../services/activity-log/log-filters.js";
import { readLogRows } from "../../services/activity-log/log-page.js";
import type { StoredEventRow } from "../../services/store/index.js";
import { countingPageQueries, embeddedClickHouse } from "../support/clickhouse.js";

const T0 = Date.UTC(2026, 10, 1, 12);

let clickhouse: ClickHouseClient;
let pages: LogPageCache;
let sink: ReturnType<typeof createEventSink>;
let pageQueries: () => number;
let nextId = 1;

beforeAll(async () => {
  clickhouse = await embeddedClickHouse();
  // The cache's page queries are counted: a page answered from the cache makes none.
  const counting = countingPageQueries(clickhouse);
  pageQueries = counting.pageQueries;
  pages = createLogPageCache(counting.client);
  sink = createEventSink(clickhouse, "events", pages.sent);
});
afterAll(async () => {
  await clickhouse?.close();
});

const event = (repository: string, atMs: number, over: Partial<StoredEventRow> = {}): StoredEventRow => ({
  id: String(nextId++),
  receivedAt: new Date(T0 + atMs),
  repository,
  trigger: "test",
  pullRequest: "1",
  baseRef: "main",
  outcome: "success",
  type: "action.label",
  batchPull: null,
  metadata: "{}",
  ...over,
});

const store = (...rows: StoredEventRow[]) => sink.insertEvents(rows, { mayExist: false });

/** A first page through the cache, checked against ClickHouse; whether the cache queried for it. */
async function read(filters: LogFilters, fromMs: number, toMs: number) {
  const window: LogWindow = { fromMs: T0 + fromMs, toMs: T0 + toMs };
  const before = pageQueries();
  const rows = await pages.rows(filters, window, null, 10);
  expect(rows).toEqual(await readLogRows(clickhouse, filters, window, null, 10));
  return { ids: rows.map((r) => r.id_text), queried: pageQueries() > before };
}

const cases: {
  name: string;
  filters: Omit<LogFilters, "repository">;
  other: Partial<StoredEventRow>;
  same: Partial<StoredEventRow>;
}[] = [
  {
    name: "event type",
    filters: { eventType: { mode: "include", values: ["action.label"] } },
    other: { type: "action.comment" },
    same: { type: "action.label" },
  },
  {
    name: "excluded event type",
    filters: { eventType: { mode: "exclude", values: ["action.comment"] } },
    other: { type: "action.comment" },
    same: { type: "action.merge" },
  },
  {
    name: "pull request",
    filters: { pullRequest: { mode: "include", values: [1n] } },
    other: { pullRequest: "2" },
    same: { pullRequest: "1" },
  },
  {
    name: "base ref",
    filters: { baseRef: "main" },
    other: { baseRef: "release" },
    same: { baseRef: "main" },
  },
  {
    name: "outcome and trigger",
    filters: { outcome: { mode: "include", values: ["success"] }, trigger: { mode: "exclude", values: ["bot"] } },
    other: { trigger: "bot" },
    same: { outcome: "success", trigger: "user" },
  },
];

describe("the /logs answer cache, per filter", () => {
  for (const c of cases)
    it(`keeps a page filtered on ${c.name} through events it does not select, drops it for one it does`, async () => {
      const repository = `filters/${c.name.replaceAll(" ", "-")}`;
      const filters: LogFilters = { repository, ...c.filters };
      await store(event(repository, 100, c.same));
      const first = await read(filters, 0, 1000);
      expect(first).toEqual({ ids: [expect.any(String)], queried: true });
      // Inside the kept window, and where a default window's end moves to.
      await store(event(repository, 500, c.other), event(repository, 1500, c.other));
      expect(await read(filters, 0, 1000)).toEqual({ ids: first.ids, queried: false });
      expect(await read(filters, 10, 2000)).toEqual({ ids: first.ids, queried: false });
      // One it selects inside the window: read again, and shown.
      const inside = event(repository, 600, c.same);
      await store(inside);
      expect(await read(filters, 10, 2000)).toEqual({ ids: [inside.id, ...first.ids], queried: true });
      // One it selects where the end moves to.
      const later = event(repository, 2500, c.same);
      await store(later);
      expect(await read(filters, 10, 2000)).toEqual({ ids: [inside.id, ...first.ids], queried: false });
      expect(await read(filters, 20, 3000)).toEqual({ ids: [later.id, inside.id, ...first.ids], queried: true });
    });

  it("drops a page once the record forgot the batches stored since, whatever their events", async () => {
    const repository = "filters/forgotten";
    const filters: LogFilters = { repository, eventType: { mode: "include", values: ["action.label"] } };
    await store(event(repository, 100));
    expect((await read(filters, 0, 1000)).queried).toBe(true);
    // Batches of another type only (recorded, as a failed insert is), more than the record keeps.
    for (let i = 0; i < 600; i++) pages.sent([event(repository, 200, { type: "action.comment" })]);
    expect((await read(filters, 0, 1000)).queried).toBe(true);
    expect((await read(filters, 0, 1000)).queried).toBe(false);
  });

  it("drops a page for an event whose kind cannot be told exactly", async () => {
    const repository = "filters/unknown";
    const filters: LogFilters = { repository, trigger: { mode: "include", values: ["user"] } };
    await store(event(repository, 100, { trigger: "user" }));
    expect((await read(filters, 0, 1000)).queried).toBe(true);
    pages.sent([event(repository, 200, { trigger: "bot\uD800" })]);
    expect((await read(filters, 0, 1000)).queried).toBe(true);
  });
});
