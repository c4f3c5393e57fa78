/**
 * The queue statistics (services/activity-log/queue-statistics.ts, docs/activity-log.md "Queue
 * statistics") computed by a real ClickHouse engine (chdb) from a recorded log: the log of a run
 * of the engine in virtual time whose traffic is known (arrivals every 5 minutes, two pull
 * requests that break the build, one dequeued by a person, CI of 20 minutes, some flaky runs),
 * each event stored at its virtual instant. Every figure must be the one the run itself measured
 * (its fates and its forge's CI runs), and agree with what the what-if's reader computes in Node
 * from the same rows (traffic-figures.ts). A hand-written log holds the case the engine's run
 * rarely makes: a failed run whose pull requests all merge afterwards (flaky).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createEventSink,
  internalEventRow,
  readRecordedTraffic,
  type ClickHouseClient,
  type RecordedTraffic,
} from "../../services/activity-log/index.js";
import { queueStatistics, type QueueStatisticsResult } from "../../services/activity-log/queue-statistics.js";
import type { LogEffect } from "../../services/engine/index.js";
import { constantMinutes, queueConfiguration, Simulation } from "../../services/simulation/index.js";
import { embeddedClickHouse } from "../support/clickhouse.js";
import { checksEndMetadata, checksStartMetadata, enterMetadata, leaveMetadata } from "./event-samples-queue.js";
import { speculativeCheck } from "./event-samples-shared.js";

// 11:00 UTC: the run crosses the 12:00 boundary of the rollups' 12-hour periods.
const START = Date.UTC(2026, 10, 2, 11);
const MIN = 60_000;
const HOUR = 60 * MIN;
const BAD = new Set([4, 11]);
const WITHDRAWN = 7;
const REPO = "acme/stats";
let ch: ClickHouseClient;
let sim: Simulation;
let stats: QueueStatisticsResult;
let traffic: RecordedTraffic;
const numbers: number[] = [];
/** The window: the whole run. */
const WINDOW = { fromMs: START - MIN, toMs: START + 2 * 86_400_000 };

async function recordRun(): Promise<{ at: number; log: LogEffect }[]> {
  const recorded: { at: number; log: LogEffect }[] = [];
  sim = new Simulation({
    seed: 5,
    config: queueConfiguration({ batchSize: { min: 1, max: 4 }, batchMaxWaitSeconds: 0, maxParallelChecks: 2 }),
    ciDuration: constantMinutes(20),
    ciSlots: 8,
    flakeRate: 0.15,
    startAt: START,
    observe: (s) => {
      for (const e of s.effects) if (e.kind === "log") recorded.push({ at: s.now, log: e });
    },
  });
  for (let i = 1; i <= 20; i++) {
    sim.runUntil(START + (i - 1) * 5 * MIN);
    numbers.push(sim.arrive({ bad: BAD.has(i) }));
    if (i === WITHDRAWN) {
      sim.runUntil(START + (i - 1) * 5 * MIN + 2 * MIN);
      sim.dequeue(numbers[WITHDRAWN - 1]!);
    }
  }
  sim.drain(2 * 86_400_000);
  return recorded;
}

beforeAll(async () => {
  ch = await embeddedClickHouse();
  const recorded = await recordRun();
  const rows = recorded.map(({ at, log }, i) => ({
    ...internalEventRow({ ...log, repository: REPO, receivedAt: new Date(at) }),
    id: String(i + 1),
    receivedAt: new Date(at),
  }));
  // Another repository's events in the same window count nowhere.
  const noise = rows.slice(0, 30).map((r, i) => ({ ...r, id: String(10_000 + i), repository: "acme/other" }));
  await createEventSink(ch).insertEvents([...rows, ...noise, ...flakyLog()], { mayExist: false });
  stats = await queueStatistics(ch, REPO, null, WINDOW);
  traffic = await readRecordedTraffic(ch, { repository: REPO, ...WINDOW, branch: null });
}, 60_000);
afterAll(() => ch?.close());

/**
 * acme/flaky: #1 and #2 enter; their batch's run fails (concluded failure); a second run passes
 * and both merge; then #3's run fails alone and #3 leaves with CHECKS_FAILED. Two failed runs of
 * three concluded; only the first is flaky.
 */
function flakyLog() {
  const at = (minute: number) => new Date(START + minute * MIN);
  const iso = (minute: number) => at(minute).toISOString();
  const events: [number, string, number, Record<string, unknown>][] = [
    [0, "action.queue.enter", 1, enterMetadata({ queued_at: iso(0) })],
    [0, "action.queue.enter", 2, enterMetadata({ queued_at: iso(0) })],
    [1, "action.queue.checks_start", 1, checksStartMetadata({ pull_request_numbers: [1, 2] })],
    [1, "action.queue.checks_start", 2, checksStartMetadata({ pull_request_numbers: [1, 2] })],
    ...[1, 2].map((n): [number, string, number, Record<string, unknown>] => [
      11,
      "action.queue.checks_end",
      n,
      checksEndMetadata({
        pull_request_numbers: [1, 2],
        speculative_check_pull_request: speculativeCheck({
          checks_conclusion: "failure",
          checks_started_at: iso(1),
          checks_ended_at: iso(11),
        }),
      }),
    ]),
    [12, "action.queue.checks_start", 1, checksStartMetadata({ pull_request_numbers: [1, 2] })],
    [
      22,
      "action.queue.checks_end",
      1,
      checksEndMetadata({
        pull_request_numbers: [1, 2],
        speculative_check_pull_request: speculativeCheck({ checks_started_at: iso(12), checks_ended_at: iso(22) }),
      }),
    ],
    [23, "action.queue.leave", 1, leaveMetadata({ queued_at: iso(0) })],
    [23, "action.queue.leave", 2, leaveMetadata({ queued_at: iso(0) })],
    [30, "action.queue.enter", 3, enterMetadata({ queued_at: iso(30) })],
    [31, "action.queue.checks_start", 3, checksStartMetadata({ pull_request_numbers: [3] })],
    [
      41,
      "action.queue.checks_end",
      3,
      checksEndMetadata({
        pull_request_numbers: [3],
        speculative_check_pull_request: speculativeCheck({
          checks_conclusion: "failure",
          checks_started_at: iso(31),
          checks_ended_at: iso(41),
        }),
      }),
    ],
    [41, "action.queue.leave", 3, leaveMetadata({ queued_at: iso(30), merged: false, dequeue_code: "CHECKS_FAILED" })],
  ];
  return events.map(([minute, type, pr, metadata], i) => ({
    ...internalEventRow({
      type,
      repository: "acme/flaky",
      pullRequest: pr,
      baseRef: "main",
      trigger: "test",
      receivedAt: at(minute),
      metadata,
    }),
    id: String(20_000 + i),
    receivedAt: at(minute),
  }));
}

const nearestRank = (sorted: number[], q: number) => sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1]!;

describe("the statistics of a recorded run, computed by ClickHouse", () => {
  it("counts the merges and their time in queue (nearest-rank p50 and p90) as the run measured them", () => {
    const merged = [...sim.fates.values()].filter((f) => f.code === "PR_MERGED");
    const waits = merged.map((f) => (f.leftAt! - f.queuedAt) / 1000).sort((a, b) => a - b);
    expect(merged.length).toBeGreaterThan(10);
    expect(stats.summary.merges).toBe(merged.length);
    expect(stats.summary.timeInQueueP50Seconds).toBe(nearestRank(waits, 0.5));
    expect(stats.summary.timeInQueueP90Seconds).toBe(nearestRank(waits, 0.9));
    expect(stats.summary.mergesPerHour).toBeCloseTo(merged.length / ((WINDOW.toMs - WINDOW.fromMs) / HOUR), 9);
  });

  it("counts the CI runs, their CI time and the figures per merge as the forge ran them", () => {
    const s = stats.summary;
    expect(s.ciRuns).toBe(sim.stats().ciRuns);
    expect(s.ciRuns).toBe(traffic.observed.ciRuns);
    expect(s.ciSeconds).toBe(traffic.observed.ciMs / 1000);
    expect(s.ciRunsPerMerge).toBeCloseTo(s.ciRuns / s.merges, 12);
    expect(s.ciSecondsPerMerge).toBeCloseTo(s.ciSeconds / s.merges, 12);
  });

  it("finds the failure and flake rates of the concluded runs, and the bisections", () => {
    const s = stats.summary;
    expect(s.concludedRuns).toBe(traffic.ciDurationsMs.length);
    expect(s.failedRuns).toBeGreaterThan(0);
    expect(s.flakeRate).toBeCloseTo(traffic.flakeRate, 12);
    expect(s.flakyRuns).toBe(Math.round(traffic.flakeRate * s.concludedRuns));
    expect(s.failureRate).toBeCloseTo(s.failedRuns / s.concludedRuns, 12);
    expect(s.bisections).toBe(traffic.observed.bisections);
    expect(s.bisections).toBeGreaterThan(0);
  });

  it("counts the removals by dequeue code, and the queue depth over time ends empty", () => {
    const removed = [...sim.fates.values()].filter((f) => f.code !== null && f.code !== "PR_MERGED");
    expect(stats.summary.removals).toBe(removed.length);
    expect(removed.length).toBeGreaterThanOrEqual(BAD.size + 1);
    expect(Object.fromEntries(stats.removalsByCode.map((r) => [r.value, Number(r.count)]))).toEqual(
      traffic.observed.dequeuesByCode,
    );
    expect(stats.summary.queueDepth).toBe(0);
    // Arrivals every 5 minutes against 20-minute runs: several wait at once.
    expect(stats.summary.queueDepthMax).toBeGreaterThan(2);
    expect(Math.max(...stats.buckets.map((b) => b.figures.queueDepthMax))).toBe(stats.summary.queueDepthMax);
  });

  it("splits the window into the buckets of AggregateLogs, whose figures add up to the whole", () => {
    // Two days: 1-hour buckets (histogram.ts), zero-filled.
    expect(stats.intervalSeconds).toBe(3600);
    expect(stats.buckets.length).toBe(49);
    const sum = (k: "merges" | "ciRuns" | "removals" | "failedRuns") =>
      stats.buckets.reduce((n, b) => n + b.figures[k], 0);
    expect(sum("merges")).toBe(stats.summary.merges);
    expect(sum("ciRuns")).toBe(stats.summary.ciRuns);
    expect(sum("removals")).toBe(stats.summary.removals);
    expect(sum("failedRuns")).toBe(stats.summary.failedRuns);
    const last = stats.buckets.at(-1)!.figures;
    expect(last).toMatchObject({ merges: 0, timeInQueueP50Seconds: null, ciRunsPerMerge: null, failureRate: null });
  });

  it("starts a later window at the depth the queue had then, and reads one branch only", async () => {
    // 12:20: the depth before it sums the rollup of 00:00-12:00 and the events of 12:00-12:20.
    for (const at of [START + 20 * MIN, START + 80 * MIN]) {
      const later = await queueStatistics(ch, REPO, null, { fromMs: at, toMs: WINDOW.toMs });
      const end = later.buckets[0]!.endMs;
      const queuedAtEnd = [...sim.fates.values()].filter(
        (f) => f.queuedAt < end && (f.leftAt === null || f.leftAt >= end),
      ).length;
      expect(queuedAtEnd).toBeGreaterThan(0);
      expect(later.buckets[0]!.figures.queueDepth).toBe(queuedAtEnd);
      expect(later.summary.queueDepth).toBe(0);
    }
    const other = await queueStatistics(ch, REPO, "release", WINDOW);
    expect(other.summary).toMatchObject({ merges: 0, ciRuns: 0, queueDepth: 0, queueDepthMax: 0 });
  });

  it("counts as flaky a failed run none of whose pull requests broke the build", async () => {
    const flaky = await queueStatistics(ch, "acme/flaky", null, WINDOW);
    expect(flaky.summary).toMatchObject({
      merges: 2,
      timeInQueueP50Seconds: 23 * 60,
      ciRuns: 3,
      ciSeconds: 30 * 60,
      concludedRuns: 3,
      failedRuns: 2,
      flakyRuns: 1,
      removals: 1,
      queueDepth: 0,
      queueDepthMax: 2,
    });
    expect(flaky.summary.flakeRate).toBeCloseTo(1 / 3, 12);
    expect(flaky.summary.failureRate).toBeCloseTo(2 / 3, 12);
  });
});
