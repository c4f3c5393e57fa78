/**
 * Quarantines and retries in recorded traffic (docs/what-if.md "Quarantines and retries"): a run
 * of the test-aware engine in virtual time, on a workload whose spurious failures fall on
 * quarantined, known flaky and unknown tests, is recorded into the embedded ClickHouse as the
 * outbox would; the reader gives back the checks passed on quarantined failures and the retries
 * for known flaky tests the run made (a retry counted as a CI run), and the what-if's assumptions
 * built from them make the traffic simulation retry and ignore failures too.
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
import { testAssumptions } from "../../services/simulator/test-assumptions.js";
import { embeddedClickHouse } from "../support/clickhouse.js";

const START = Date.UTC(2026, 10, 3, 9);
const MIN = 60_000;
const CONFIG = queueConfiguration({ batchSize: { min: 1, max: 4 }, batchMaxWaitSeconds: 0, maxParallelChecks: 2 });
const WORKLOAD = { attributable: 0, spurious: 0.3, quarantinedShare: 0.4, flakyShare: 0.4, aware: true };
let ch: ClickHouseClient;
let sim: Simulation;
let traffic: RecordedTraffic;

/** 120 pull requests 5 minutes apart, one in ten broken, a 20-minute CI, every log event at its virtual instant. */
function recordRun(): { at: number; log: LogEffect }[] {
  const recorded: { at: number; log: LogEffect }[] = [];
  sim = new Simulation({
    seed: 5,
    config: CONFIG,
    ciDuration: constantMinutes(20),
    ciSlots: 8,
    flakeRate: 0,
    tests: WORKLOAD,
    startAt: START,
    observe: (s) => {
      for (const e of s.effects) if (e.kind === "log") recorded.push({ at: s.now, log: e });
    },
  });
  for (let i = 1; i <= 120; i++) {
    sim.runUntil(START + (i - 1) * 5 * MIN);
    sim.arrive({ bad: i % 10 === 4 });
  }
  sim.drain(30 * 86_400_000);
  return recorded;
}

beforeAll(async () => {
  ch = await embeddedClickHouse();
  const rows = recordRun().map(({ at, log }, i) => ({
    ...internalEventRow({ ...log, repository: "acme/tests", receivedAt: new Date(at) }),
    id: String(i + 1),
    receivedAt: new Date(at),
  }));
  await createEventSink(ch).insertEvents(rows, { mayExist: false });
  traffic = await readRecordedTraffic(ch, {
    repository: "acme/tests",
    fromMs: START - MIN,
    toMs: START + 30 * 86_400_000,
    branch: null,
  });
}, 60_000);
afterAll(() => ch?.close());

describe("recorded traffic of a test-aware queue", () => {
  it("gives back the run's retries for known flaky tests and its checks passed on quarantined failures", () => {
    const ignored = sim.logs.filter(
      (l) =>
        l.type === "action.queue.checks_end" &&
        (l.metadata.pull_request_numbers as number[])[0] === l.pullRequest &&
        Array.isArray(l.metadata.ignored_failing_tests),
    ).length;
    expect(sim.stats().reruns).toBeGreaterThan(0);
    expect(ignored).toBeGreaterThan(0);
    expect(traffic.retries).toBe(sim.stats().reruns);
    expect(traffic.ignoredFailures).toBe(ignored);
    expect(traffic.observed).toMatchObject({ retries: traffic.retries, ignoredFailures: ignored });
    expect(traffic.observed.ciRuns).toBe(sim.stats().ciRuns);
  });

  it("makes the what-if assume the shares it measured, and retry and ignore failures as the queue did", () => {
    const assumed = testAssumptions(traffic, true);
    expect(assumed.testAware).toBe(true);
    // Spurious failures that bisection pinned on a pull request read as that pull request's: the
    // measured rate is below the workload's 30%, its shares near the workload's 40% and 40%.
    expect(assumed.spuriousRate).toBeGreaterThan(0.1);
    expect(assumed.spuriousRate).toBeLessThan(0.3);
    expect(assumed.quarantinedShare).toBeGreaterThan(0.2);
    expect(assumed.knownFlakyShare).toBeGreaterThan(0.2);
    expect(assumed.quarantinedShare + assumed.knownFlakyShare).toBeLessThanOrEqual(1);
    expect(assumed.note).toMatch(/^test-aware \(CI Insights is on\): \d+\.\d% of CI runs fail with no culprit/);
    const input = { ...traffic, seed: 1 };
    const aware = simulateTraffic({ ...input, tests: assumed.workload! }, CONFIG);
    expect(aware.retries).toBeGreaterThan(0);
    expect(aware.ignoredFailures).toBeGreaterThan(0);
    // Blind to tests at the same rate of spurious failures: nothing retried or ignored, more bisections.
    const blind = simulateTraffic({ ...input, flakeRate: assumed.spuriousRate }, CONFIG);
    expect(blind).toMatchObject({ retries: 0, ignoredFailures: 0 });
    expect(blind.bisections).toBeGreaterThan(aware.bisections);
  });

  it("assumes a queue blind to tests when CI Insights is off, at the recorded flake rate", () => {
    const assumed = testAssumptions(traffic, false);
    expect(assumed).toMatchObject({ testAware: false, workload: null, spuriousRate: traffic.flakeRate });
    expect(assumed.note).toMatch(/^blind to tests \(CI Insights is off for the repository\)/);
  });
});
