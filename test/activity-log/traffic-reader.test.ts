/**
 * The traffic reader of the what-if (services/activity-log/traffic-reader.ts, docs/what-if.md
 * "What is read") on a recorded log in a real ClickHouse engine (chdb): the log is the one the
 * engine writes, recorded from a run of the engine in virtual time whose traffic is known (which
 * pull requests arrive when, which break the build, how long CI takes, when the base is pushed
 * outside the queue, who is withdrawn), stored with each event's instant as its received_at.
 * The reader must give back that traffic, and the outcome the run measured; replayed through the
 * engine under the same configuration (services/simulation/traffic-simulation.ts), it gives back the
 * run's own figures exactly (nothing in virtual time is left to estimate).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createEventSink,
  internalEventRow,
  readRecordedTraffic,
  type ClickHouseClient,
  type RecordedTraffic,
} from "../../services/activity-log/index.js";
import type { LogEffect } from "../../services/engine/index.js";
import { constantMinutes, queueConfiguration, simulateTraffic, Simulation } from "../../services/simulation/index.js";
import { embeddedClickHouse } from "../support/clickhouse.js";

const START = Date.UTC(2026, 10, 2, 9);
const MIN = 60_000;
const BAD = new Set([4, 11]);
const WITHDRAWN = 7;
const KNOBS = { batchSize: { min: 1, max: 4 }, batchMaxWaitSeconds: 0, maxParallelChecks: 2 };
const CONFIG = queueConfiguration(KNOBS);
let ch: ClickHouseClient;
let sim: Simulation;
let traffic: RecordedTraffic;
/** Pull request numbers in arrival order (the outside push takes a number of its own). */
const numbers: number[] = [];

/**
 * 16 pull requests 5 minutes apart, on `main`, batches of up to 4 with 2 checks in parallel, CI
 * of 20 minutes, no flakes; 4 and 11 break the build; 7 is dequeued by a person 3 minutes after
 * it entered; the base is pushed outside the queue at minute 32. Every log event is recorded at
 * its virtual instant.
 */
async function recordRun(): Promise<{ at: number; log: LogEffect }[]> {
  const recorded: { at: number; log: LogEffect }[] = [];
  sim = new Simulation({
    seed: 3,
    config: CONFIG,
    ciDuration: constantMinutes(20),
    ciSlots: 8,
    flakeRate: 0,
    startAt: START,
    observe: (s) => {
      for (const e of s.effects) if (e.kind === "log") recorded.push({ at: s.now, log: e });
    },
  });
  for (let i = 1; i <= 16; i++) {
    sim.runUntil(START + (i - 1) * 5 * MIN);
    numbers.push(sim.arrive({ bad: BAD.has(i) }));
    if (i !== WITHDRAWN) continue;
    sim.runUntil(START + 32 * MIN);
    sim.externalMerge();
    sim.runUntil(START + 33 * MIN);
    sim.dequeue(numbers[WITHDRAWN - 1]!);
  }
  sim.drain(30 * 86_400_000);
  return recorded;
}

beforeAll(async () => {
  ch = await embeddedClickHouse();
  const recorded = await recordRun();
  const rows = recorded.map(({ at, log }, i) => ({
    ...internalEventRow({ ...log, repository: "acme/traffic", receivedAt: new Date(at) }),
    id: String(i + 1),
    receivedAt: new Date(at),
  }));
  // Another repository's and another branch's events in the same window are not read.
  const noise = rows.slice(0, 20).map((r, i) => ({ ...r, id: String(10_000 + i), repository: "acme/other" }));
  await createEventSink(ch).insertEvents([...rows, ...noise], { mayExist: false });
  traffic = await readRecordedTraffic(ch, {
    repository: "acme/traffic",
    fromMs: START - MIN,
    toMs: START + 30 * 86_400_000,
    branch: null,
  });
}, 60_000);
afterAll(() => ch?.close());

describe("reading a repository's recorded traffic", () => {
  it("gives the arrivals in order at their instants, the ones that broke the build and the withdrawal", () => {
    expect(traffic.branch).toBe("main");
    expect(traffic.arrivals.map((a) => a.number)).toEqual(numbers);
    expect(traffic.arrivals.map((a) => a.at)).toEqual(numbers.map((_, i) => START + i * 5 * MIN));
    expect(traffic.arrivals.filter((a) => a.bad).map((a) => a.number)).toEqual([...BAD].map((i) => numbers[i - 1]));
    expect(traffic.arrivals.filter((a) => a.withdrawal).map((a) => [a.number, a.withdrawal])).toEqual([
      [numbers[WITHDRAWN - 1], { at: START + 33 * MIN, code: "PR_MANUALLY_DEQUEUED" }],
    ]);
  });

  it("gives the CI durations, no flakes, and the outside push as the instant the queue reset", () => {
    expect(traffic.ciDurationsMs.length).toBeGreaterThan(5);
    expect(new Set(traffic.ciDurationsMs)).toEqual(new Set([20 * MIN]));
    expect(traffic.flakeRate).toBe(0);
    expect(traffic.outsidePushes).toEqual([START + 32 * MIN]);
    // The virtual forge builds drafts and merges at once.
    expect(traffic.mergeMs).toBe(0);
    expect(traffic.draftMs).toBe(0);
  });

  it("measures what the queue did as the run did: merges, time in queue, CI runs, dequeues", () => {
    const fates = [...sim.fates.values()];
    const merged = fates.filter((f) => f.code === "PR_MERGED");
    const waits = merged.map((f) => f.leftAt! - f.queuedAt).sort((a, b) => a - b);
    expect(traffic.observed).toMatchObject({
      merges: merged.length,
      timeInQueueP95Ms: waits[Math.ceil(0.95 * waits.length) - 1],
      ciRuns: sim.stats().ciRuns,
      stillQueued: 0,
    });
    expect(merged.length).toBe(16 - BAD.size - 1);
    expect(traffic.observed.bisections).toBeGreaterThan(0);
    expect(Object.values(traffic.observed.dequeuesByCode).reduce((a, b) => a + b, 0)).toBe(BAD.size + 1);
    expect(traffic.observed.dequeuesByCode.PR_MANUALLY_DEQUEUED).toBe(1);
  });

  it("replayed under the configuration that ran, gives back the run's own figures", () => {
    const input = { ...traffic, seed: 1 };
    const predicted = simulateTraffic(input, CONFIG);
    expect(predicted).toEqual(traffic.observed);
    // Larger batches (4 to 8, waiting 30 minutes for company) spend fewer runs on the same traffic.
    const larger = simulateTraffic(
      input,
      queueConfiguration({ ...KNOBS, batchSize: { min: 4, max: 8 }, batchMaxWaitSeconds: 1800 }),
    );
    expect(larger.ciRuns / larger.merges).toBeLessThan(predicted.ciRuns / predicted.merges);
  });

  it("reads nothing outside the window, and names the busiest branch only from it", async () => {
    const empty = await readRecordedTraffic(ch, {
      repository: "acme/traffic",
      fromMs: START - 60 * MIN,
      toMs: START - MIN,
      branch: null,
    });
    expect(empty).toMatchObject({ branch: "", arrivals: [], ciDurationsMs: [], outsidePushes: [] });
    const window = { repository: "acme/traffic", fromMs: START, toMs: START + 30 * 86_400_000 };
    const other = await readRecordedTraffic(ch, { ...window, branch: "release" });
    expect(other.arrivals).toEqual([]);
  });
});
