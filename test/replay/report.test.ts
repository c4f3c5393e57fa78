/**
 * The replay report from a run's log (docs/replay.md "The report"): CI runs counted once per
 * check (not once per member), batches, sub-batches and bisections, time in queue (mean, p95 by
 * nearest rank), the log's counts against /logs/aggregate, the tree verdict and `ok`; the text
 * names every dequeued pull request with its code; a pull request a later head merged with it
 * is merged, not dequeued.
 */
import { describe, expect, it } from "vitest";
import {
  formatReport,
  mean,
  percentile,
  ReplayTracker,
  summarizeReplay,
  type LogEvent,
  type ReplayPlan,
  type ReportInput,
} from "../../services/replay/index.js";

const T0 = Date.UTC(2026, 0, 1);
let id = 0;
const event = (type: string, pullRequest: number, atSeconds: number, metadata: LogEvent["metadata"]): LogEvent => ({
  id: ++id,
  type: `action.queue.${type}`,
  pullRequest,
  receivedAt: T0 + atSeconds * 1000,
  metadata,
});
const queuedAt = (s: number) => new Date(T0 + s * 1000).toISOString();
const start = (pr: number, at: number, batch: string, name: string, members: number[]) =>
  event("checks_start", pr, at, { batch_id: batch, batch_name: name, pull_request_numbers: members });
const end = (pr: number, at: number, batch: string, members: number[], aborted = false) =>
  event("checks_end", pr, at, { batch_id: batch, pull_request_numbers: members, aborted });

/** Batch 1 (#1, #2) passes; Batch 2 (#3, #4) fails, is bisected, #3 is the culprit, #4 merges. */
const EVENTS: LogEvent[] = [
  ...[1, 2, 3, 4].map((n) => event("enter", n, 0, { queued_at: queuedAt(0) })),
  start(1, 1, "b1", "Batch 1", [1, 2]),
  start(2, 1, "b1", "Batch 1", [1, 2]),
  start(3, 1, "b2", "Batch 2", [3, 4]),
  start(4, 1, "b2", "Batch 2", [3, 4]),
  end(1, 9, "b1", [1, 2]),
  end(2, 9, "b1", [1, 2]),
  end(3, 29, "b2", [3, 4]),
  end(4, 29, "b2", [3, 4]),
  event("leave", 1, 10, { merged: true, queued_at: queuedAt(0), dequeue_code: "PR_MERGED" }),
  event("leave", 2, 20, { merged: true, queued_at: queuedAt(0), dequeue_code: "PR_MERGED" }),
  event("batch_bisection_start", 3, 30, { batch_id: "b2" }),
  event("batch_bisection_start", 4, 30, { batch_id: "b2" }),
  start(3, 31, "s21", "Sub-batch 2.1", [3]),
  end(3, 59, "s21", [3]),
  event("leave", 3, 60, {
    merged: false,
    queued_at: queuedAt(0),
    dequeue_code: "CHECKS_FAILED",
    reason: "checks failed",
  }),
  event("leave", 4, 100, { merged: true, queued_at: queuedAt(0), dequeue_code: "PR_MERGED" }),
];

const PLAN = {
  mode: "merges",
  changes: 4,
  pulls: [1, 2, 3, 4].map((order) => ({ order })),
  pushes: [],
} as unknown as ReplayPlan;

function input(over: Partial<ReportInput> = {}): ReportInput {
  const tracker = new ReplayTracker([1, 2, 3, 4], 0);
  for (const n of [1, 2, 4]) tracker.setPull(n, { kind: "merged", number: n });
  tracker.setPull(3, { kind: "dequeued", number: 3, code: "CHECKS_FAILED", reason: "checks failed" });
  const listed: Record<string, number> = {};
  for (const e of EVENTS) listed[e.type] = (listed[e.type] ?? 0) + 1;
  return {
    repository: "demo/shop",
    plan: PLAN,
    tracker,
    breaks: new Set([3]),
    flaky: null,
    events: EVENTS,
    aggregated: listed,
    tree: { expected: "t1", actual: "t2" },
    wallSeconds: 100,
    speed: 60,
    ...over,
  };
}

describe("the replay report", () => {
  it("counts one CI run per check, the batches, sub-batches and bisections, and the time in queue", () => {
    const r = summarizeReplay(input());
    expect(r).toMatchObject({
      merged: [1, 2, 4],
      dequeued: [{ order: 3, number: 3, code: "CHECKS_FAILED" }],
      notQueued: [],
      broken: [3],
      ciRuns: 3,
      ciRunsCompleted: 3,
      ciRunsPerMerge: 1,
      batches: 2,
      subBatches: 1,
      bisections: 1,
      timeInQueue: { meanSeconds: (10 + 20 + 100) / 3, p95Seconds: 100 },
      log: { consistent: true },
      tree: { equal: false },
    });
  });

  it("counts a check stopped before its result as started, not as run to a result", () => {
    const events = [...EVENTS, start(4, 70, "b3", "Batch 3", [4]), end(4, 71, "b3", [4], true)];
    const r = summarizeReplay(input({ events, aggregated: {} }));
    expect(r).toMatchObject({ ciRuns: 4, ciRunsCompleted: 3, batches: 3 });
    expect(formatReport(r)).toContain("CI runs: 4 speculative checks started, 3 ran to a result, 1 stopped first");
  });

  it("counts a pull request a later head merged with it as merged, not dequeued", () => {
    const tracker = new ReplayTracker([1, 2, 3, 4], 0);
    for (const n of [1, 4]) tracker.setPull(n, { kind: "merged", number: n });
    tracker.setPull(2, { kind: "dequeued", number: 2, code: "PR_MANUALLY_MERGED", reason: "merged outside the queue" });
    tracker.setPull(3, { kind: "dequeued", number: 3, code: "CHECKS_FAILED", reason: "checks failed" });
    const r = summarizeReplay(input({ tracker }));
    expect(r.mergedWithLater).toEqual([{ order: 2, number: 2 }]);
    expect(r.dequeued.map((d) => d.number)).toEqual([3]);
    expect(r.ciRunsPerMerge).toBe(1);
    const text = formatReport(r);
    expect(text).toContain("pull requests: 4, merged 3 (1 with a later pull request), dequeued 1, not queued 0");
    expect(text).toContain(
      "merged with a later pull request: #2 (pull 2): a later head holding its commit merged first",
    );
  });

  it.each([
    ["the tree matches, nothing broken", { tree: { expected: "t", actual: "t" }, breaks: new Set<number>() }, true],
    ["the tree differs, nothing broken", { breaks: new Set<number>() }, false],
    ["the tree differs, pull requests broken on purpose", {}, true],
  ])("is ok when %s: %s", (_name, over, ok) => {
    expect(summarizeReplay(input(over)).ok).toBe(ok);
  });

  it("reports a log whose aggregate disagrees with its pages", () => {
    const r = summarizeReplay(input({ aggregated: { "action.queue.leave": 1 } }));
    expect(r.log.consistent).toBe(false);
    expect(formatReport(r)).toContain("/logs/aggregate DISAGREES");
  });

  it("writes the facts a person looks for", () => {
    const text = formatReport(summarizeReplay(input()));
    expect(text).toContain("pull requests: 4, merged 3, dequeued 1, not queued 0");
    expect(text).toContain("dequeued #3 (pull 3): CHECKS_FAILED — checks failed");
    expect(text).toContain(
      "CI runs: 3 speculative checks started, 3 ran to a result, 0 stopped first (a reset); 1.00 started per merged pull request",
    );
    expect(text).toContain("batches checked: 2, bisections: 1 (sub-batches checked: 1)");
    expect(text).toMatch(/final tree of the base t2 differs .* t1 \(expected: pull requests were broken on purpose\)/);
  });

  it.each([
    [[], 95, null, null],
    [[7], 95, 7, 7],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20], 95, 19, 10.5],
    [[5, 1, 3], 50, 3, 3],
  ])("%j: percentile %s by nearest rank is %s, mean %s", (values, p, expected, average) => {
    expect(percentile(values, p)).toBe(expected);
    expect(mean(values)).toBe(average);
  });
});
