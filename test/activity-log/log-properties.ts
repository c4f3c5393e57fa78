/**
 * The activity log's property suite (issue "Activity log", Tests): random event sets appended
 * through AppendEvents and relayed to ClickHouse, then random filter combinations. For each:
 * - walking `/logs` forward (rel="next" from the first page) and then back (rel="prev" from the
 *   last page) yields exactly the brute-force list, in order, without duplicates; every page but
 *   the last of a walk is full; the first page has no `prev`, the last no `next`;
 * - every event comes back as it was appended (envelope, derived outcome, metadata);
 * - `/logs/aggregate` total, interval, histogram and the five facets equal the brute-force counts,
 *   and `total` equals the number of rows the walk listed.
 * A second property draws windows of weeks (12-hour buckets), where whole 12-hour periods are read
 * from the rollups and the ends from the events. Both are registered once per ClickHouse path
 * (embedded engine, and by URL) by the two *.test.ts files.
 */
import fc from "fast-check";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ListLogsResponse } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { Outcome } from "../../gen/yardmaster/v1/events_pb.js";
import { LONG_WINDOWS, NOW, runArbitrary, withOwner, type FilterCase } from "./log-arbitraries.js";
import { linkCursor, startLogHarness, type ListInit, type LogHarness } from "./log-harness.js";
import { expectedFacets, expectedHistogram, expectedList, modelEvent, type ModelEvent } from "./log-model.js";

type Event = ListLogsResponse["events"][number];

function asModelView(e: Event) {
  return {
    id: e.id,
    receivedAtMs: timestampMs(e.receivedAt!),
    repository: e.repository,
    type: e.type,
    trigger: e.trigger,
    pullRequest: e.pullRequest ?? null,
    baseRef: e.baseRef ?? null,
    outcome: Outcome[e.outcome],
    metadata: e.metadata,
  };
}
const modelView = (e: ModelEvent) => ({
  id: e.id,
  receivedAtMs: e.receivedAtMs,
  repository: e.repository,
  type: e.type,
  trigger: e.trigger,
  pullRequest: e.pullRequest,
  baseRef: e.baseRef,
  outcome: e.outcome,
  metadata: e.metadata,
});

/** A generated filter case with its repository slot replaced by this execution's name. */
function bindOwner<C extends FilterCase>(c: C, owner: string): C {
  const repository = withOwner(c.model.repository, owner);
  const [o, r] = repository.split("/");
  return { ...c, request: { ...c.request, owner: o, repository: r }, model: { ...c.model, repository } };
}

/** Walks every page in one direction; returns the pages' events in listing order (newest first). */
async function walk(h: LogHarness, c: FilterCase, perPage: number, start: string | undefined, rel: "next" | "prev") {
  const pages: Event[][] = [];
  let cursor = start;
  let link = "";
  const seen = new Set<bigint>();
  for (;;) {
    // The aggregate's parameters are the listing's, without cursor and per_page.
    const { response, link: l } = await h.list({
      ...(c.request as ListInit & object),
      perPage,
      ...(cursor === undefined ? {} : { cursor }),
    });
    for (const e of response.events) {
      expect(seen.has(e.id), `event ${e.id} listed twice`).toBe(false);
      seen.add(e.id);
    }
    expect(response.size).toBe(response.events.length);
    expect(response.perPage).toBe(perPage);
    expect(linkCursor(l, "first")).toBe("");
    if (cursor === undefined) expect(linkCursor(l, "prev")).toBeUndefined();
    // A page reached from a neighbour links back to it.
    else expect(linkCursor(l, rel === "next" ? "prev" : "next")).toBeDefined();
    pages.push(response.events);
    link = l;
    cursor = linkCursor(l, rel);
    if (cursor === undefined) break;
  }
  const ordered = rel === "next" ? pages : [...pages].reverse();
  // Every page but the last one reached is full.
  for (const p of pages.slice(0, -1)) expect(p).toHaveLength(perPage);
  return { events: ordered.flat(), lastLink: link };
}

/** Registers the property suite for one ClickHouse path. */
export function defineLogProperties(path: "embedded" | "url", numRuns: number): void {
  let h: LogHarness;
  let run = 0;
  beforeAll(async () => {
    h = await startLogHarness(path, () => new Date(NOW));
  });
  afterAll(async () => {
    await h?.close();
  });

  const property = (steps: number[] | undefined) =>
    fc.asyncProperty(runArbitrary(steps), async ({ events: slotEvents, filters: slotFilters }) => {
      const owner = `${path}-run${++run}`;
      const events = slotEvents.map((e) => ({ ...e, repository: withOwner(e.repository, owner) }));
      const filters = slotFilters.map((c) => bindOwner(c, owner));
      const ids = events.length ? await h.append(events) : [];
      const model = events.map((e, i) => modelEvent(e, ids[i]));
      for (const c of filters) {
        const want = expectedList(model, c.model);
        // Enough rows per page that a walk takes at most ~20 pages.
        const perPage = Math.max(c.perPage, Math.ceil(want.length / 20));
        const forward = await walk(h, c, perPage, undefined, "next");
        expect(forward.events.map(asModelView)).toEqual(want.map(modelView));
        const back = await walk(h, c, perPage, linkCursor(forward.lastLink, "prev"), "prev");
        const lastPage = forward.events.length % perPage || (forward.events.length ? perPage : 0);
        const fromBack = [...back.events, ...forward.events.slice(forward.events.length - lastPage)];
        if (linkCursor(forward.lastLink, "prev") !== undefined)
          expect(fromBack.map((e) => e.id)).toEqual(want.map((e) => e.id));

        const agg = await h.aggregate(c.request);
        const hist = expectedHistogram(model, c.model);
        expect(agg.total).toBe(BigInt(want.length));
        expect(Number(agg.intervalSizeSeconds)).toBe(hist.interval);
        expect(
          agg.histogram.map((b) => ({
            start: timestampMs(b.start!),
            end: timestampMs(b.end!),
            count: Number(b.count),
          })),
        ).toEqual(hist.buckets);
        const facets = expectedFacets(model, c.model);
        const got = (xs: { value: string; count: bigint }[]) =>
          xs.map((x) => ({ value: x.value, count: Number(x.count) }));
        expect({
          byEventType: got(agg.byEventType),
          byOutcome: got(agg.byOutcome),
          byTrigger: got(agg.byTrigger),
          byPullRequest: got(agg.byPullRequest),
          byBatchPullRequest: got(agg.byBatchPullRequest),
        }).toEqual(facets);
      }
    });

  it(`pages and aggregates equal the brute-force model (${path})`, async () => {
    await fc.assert(property(undefined), { numRuns });
  }, 240_000);

  it(`aggregates over weeks, partly read from the rollups, equal the brute-force model (${path})`, async () => {
    await fc.assert(property(LONG_WINDOWS), { numRuns: Math.ceil(numRuns / 2) });
  }, 240_000);
}
