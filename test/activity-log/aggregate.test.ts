/**
 * `/logs/aggregate` cases a small random data set never reaches (docs/activity-log.md
 * "Aggregates" rules): facets keep the top 200 values by count, ties by value (numbers
 * numerically), and each facet filter leaves its own facet alone while narrowing the others.
 */
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { METADATA_BUILDERS } from "./event-samples.js";
import { startLogHarness, type AppendInput, type LogHarness } from "./log-harness.js";

const T = Date.UTC(2026, 10, 22, 10);
let h: LogHarness;
beforeAll(async () => {
  h = await startLogHarness("embedded", () => new Date(T + 3_600_000));
});
afterAll(async () => {
  await h?.close();
});

const label = (repository: string, i: number, pullRequest: bigint | null, trigger: string): AppendInput => ({
  type: "action.label",
  repository,
  pullRequest,
  baseRef: "main",
  trigger,
  receivedAtMs: T + i,
  metadata: METADATA_BUILDERS["action.label"](),
});
const facet = (xs: { value: string; count: bigint }[]) => xs.map((x) => [x.value, Number(x.count)]);

describe("facets", () => {
  it("keep the top 200 by count, ties by value, and count every value in by_event_type and by_outcome", async () => {
    // Pull request n (1..260) has 1 event, plus one more for n <= 30; trigger t-n likewise.
    const events: AppendInput[] = [];
    for (let n = 1; n <= 260; n++) {
      const copies = n <= 30 ? 2 : 1;
      for (let c = 0; c < copies; c++)
        events.push(label("acme/top", events.length, BigInt(n), `t-${String(n).padStart(3, "0")}`));
    }
    await h.append(events);
    const agg = await h.aggregate({
      owner: "acme",
      repository: "top",
      receivedFrom: timestampFromMs(T),
      receivedTo: timestampFromMs(T + 60_000),
    });
    expect(agg.total).toBe(290n);
    const prs = facet(agg.byPullRequest);
    expect(prs).toHaveLength(200);
    expect(prs.slice(0, 30)).toEqual(Array.from({ length: 30 }, (_, i) => [String(i + 1), 2]));
    // Ties by numeric value: 31, 32, ..., 200 (not "100" before "31").
    expect(prs.slice(30)).toEqual(Array.from({ length: 170 }, (_, i) => [String(i + 31), 1]));
    expect(facet(agg.byTrigger).slice(29, 32)).toEqual([
      ["t-030", 2],
      ["t-031", 1],
      ["t-032", 1],
    ]);
    expect(agg.byTrigger).toHaveLength(200);
    expect(facet(agg.byEventType)).toEqual([["action.label", 290]]);
    // action.label: an action of pull request rules, success without an error (docs/activity-log.md "Outcomes").
    expect(facet(agg.byOutcome)).toEqual([["success", 290]]);
  });

  it("leave out their own filter, and only theirs", async () => {
    const r = "acme/faceted";
    await h.append([
      label(r, 0, 1n, "API"),
      label(r, 1, 1n, "@ada"),
      label(r, 2, 2n, "API"),
      label(r, 3, null, "API"),
      label(r, 4, 3n, "@ada"),
    ]);
    const agg = await h.aggregate({
      owner: "acme",
      repository: "faceted",
      pullRequest: [1n],
      trigger: ["API"],
      receivedFrom: timestampFromMs(T),
      receivedTo: timestampFromMs(T + 60_000),
    });
    expect(agg.total).toBe(1n);
    expect(facet(agg.byEventType)).toEqual([["action.label", 1]]);
    // Trigger facet: pull request 1 only, any trigger.
    expect(facet(agg.byTrigger)).toEqual([
      ["@ada", 1],
      ["API", 1],
    ]);
    // Pull request facet: trigger API only, any pull request; the event without one is not a value.
    expect(facet(agg.byPullRequest)).toEqual([
      ["1", 1],
      ["2", 1],
    ]);
    expect(agg.histogram.reduce((n, b) => n + b.count, 0n)).toBe(1n);
  });

  it("answer a window of thousands of years with at most 100 buckets, counting every event in it", async () => {
    const agg = await h.aggregate({
      owner: "acme",
      repository: "faceted",
      receivedFrom: timestampFromMs(Date.parse("0001-01-01T00:00:00Z")),
      receivedTo: timestampFromMs(Date.parse("9999-01-01T00:00:00Z")),
    });
    expect(agg.histogram.length).toBeLessThanOrEqual(100);
    expect(Number(agg.intervalSizeSeconds) % 604_800).toBe(0);
    expect(agg.total).toBe(5n);
  });

  it("answer an empty window with zero counts and no buckets", async () => {
    const agg = await h.aggregate({
      owner: "acme",
      repository: "faceted",
      receivedFrom: timestampFromMs(T),
      receivedTo: timestampFromMs(T),
    });
    expect({ total: agg.total, histogram: agg.histogram, byTrigger: agg.byTrigger }).toEqual({
      total: 0n,
      histogram: [],
      byTrigger: [],
    });
  });
});
