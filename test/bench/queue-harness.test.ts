/**
 * The queue benchmark counts as docs/benchmarks.md "The merge queue" says, on a small scripted case
 * worked out by hand: every CI run started counts whole, a cancelled one counts for the part of D it
 * ran in CI time, time in queue runs from the first enqueue to the merge, a good pull request sent
 * back counts against the queue, and the seeds of a point are pooled.
 */
import { describe, expect, it } from "vitest";
import { Simulation, constantMinutes, queueConfiguration, reportOf } from "../../services/simulation/index.js";
import { pool, summarize } from "../../bench/queue/summary.js";

const MIN = 60_000;

/** PR 1 (breaks the build) at 0, PR 2 at 10 min, PR 3 at 90 min, PR 4 at 150 min dequeued by hand at 160 min. */
function scripted() {
  const sim = new Simulation({
    seed: 1,
    config: queueConfiguration({ batchSize: { min: 1, max: 1 }, batchMaxWaitSeconds: 0, maxParallelChecks: 2 }),
    ciDuration: constantMinutes(30),
    ciSlots: 10,
    flakeRate: 0,
  });
  const start = sim.now;
  sim.arrive({ bad: true });
  sim.runUntil(start + 10 * MIN);
  sim.arrive();
  sim.runUntil(start + 90 * MIN);
  sim.arrive();
  sim.runUntil(start + 150 * MIN);
  sim.arrive();
  sim.runUntil(start + 160 * MIN);
  sim.dequeue(4);
  sim.drain(24 * 60 * MIN);
  return reportOf(sim, start, 4, false);
}

describe("the queue benchmark's counting", () => {
  const report = scripted();

  it("counts the run cancelled behind the failure whole in runs and for the 20 minutes it ran in CI time", () => {
    // PR 1: 0-30 fails. PR 2: 10-30 on top of it (stopped at 30), again 30-60. PR 3: 90-120. PR 4: 150-160 (stopped).
    expect(report.ciRuns).toBe(5);
    expect(report.cancelledRuns).toBe(2);
    expect(report.merged).toBe(2);
    expect(report.runsPerMerge).toBe(2.5);
    expect(report.ciMinutesPerMerge).toBeCloseTo((30 + 20 + 30 + 30 + 10) / 2, 6);
  });

  it("measures time in queue from the first enqueue to the merge", () => {
    expect([...report.mergedMinutes].sort((a, b) => a[0] - b[0])).toEqual([
      [2, 50],
      [3, 30],
    ]);
  });

  it("counts a good pull request that left without merging against the queue, not the culprit", () => {
    expect(report.dequeueCodes).toEqual({ CHECKS_FAILED: 1, PR_MANUALLY_DEQUEUED: 1 });
    expect(report.goodDequeued).toBe(1);
  });

  it("pools the seeds of a point: latencies together, runs and merges summed, CI time in D", () => {
    const one = summarize(report);
    const f = pool([one, one], 30);
    expect(f.merged).toBe(4);
    expect(f.p95Minutes).toBe(50);
    expect(f.meanMinutes).toBe(40);
    expect(f.runsPerMerge).toBe(2.5);
    expect(f.ciDPerMerge).toBeCloseTo(120 / 30 / 2, 6);
    expect(f.goodDequeued).toBe(2);
  });
});
