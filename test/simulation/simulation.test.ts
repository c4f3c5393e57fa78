/**
 * The what-if simulation (services/simulation/simulate.ts): deterministic per seed, close to the
 * closed forms it is benchmarked against, able to tell an unstable queue, counting the CI time
 * used, and its forge's audit catches a base that received an untested tree.
 */
import { describe, expect, it } from "vitest";
import { constantMinutes, queueConfiguration, Simulation, simulateQueue } from "../../services/simulation/index.js";

const serial = queueConfiguration({ batchSize: { min: 1, max: 1 }, batchMaxWaitSeconds: 0, maxParallelChecks: 1 });
const batched = queueConfiguration({ batchSize: { min: 2, max: 4 }, batchMaxWaitSeconds: 600, maxParallelChecks: 5 });
const common = { breakProbability: 0.05, flakeRate: 0, ciSlots: 10, ciDuration: constantMinutes(30) };

describe("what-if simulation", () => {
  it("is deterministic for a seed and differs across seeds", () => {
    const run = (seed: number) =>
      simulateQueue({ ...common, seed, config: batched, pullRequests: 300, arrivalsPerHour: 8 });
    expect(run(3)).toEqual(run(3));
    expect(run(3).meanMinutes).not.toBe(run(4).meanMinutes);
  });

  it("a saturated serial queue merges q/D pull requests per hour (within 5%)", () => {
    const r = simulateQueue({
      ...common,
      seed: 1,
      config: serial,
      pullRequests: 1500,
      arrivalsPerHour: 0,
      saturation: 20,
    });
    expect(Math.abs(r.mergesPerHour / 1.9 - 1)).toBeLessThan(0.05);
    expect(r.runsPerMerge).toBeGreaterThan(1);
  });

  it("counts the CI time used: whole runs in a serial queue, cancelled runs only for the minutes they ran", () => {
    const alone = simulateQueue({
      ...common,
      seed: 1,
      config: serial,
      pullRequests: 300,
      arrivalsPerHour: 0,
      saturation: 20,
    });
    expect(alone.cancelledRuns).toBe(0);
    expect(alone.ciMinutesPerMerge).toBeCloseTo(alone.runsPerMerge * 30, 6);
    const speculative = simulateQueue({ ...common, seed: 1, config: batched, pullRequests: 800, arrivalsPerHour: 16 });
    expect(speculative.cancelledRuns).toBeGreaterThan(0);
    expect(speculative.ciMinutesPerMerge).toBeLessThan(speculative.runsPerMerge * 30);
    expect(speculative.ciMinutesPerMerge).toBeGreaterThan(
      (speculative.runsPerMerge - speculative.cancelledRuns / speculative.merged) * 30,
    );
  });

  it("reports a queue whose arrivals exceed its capacity as unstable", () => {
    const r = simulateQueue({
      ...common,
      seed: 1,
      config: serial,
      pullRequests: 2000,
      arrivalsPerHour: 8,
      maxQueued: 60,
    });
    expect(r.unstable).toBe(true);
    expect(r.mergesPerHour).toBeLessThan(2);
  });

  it("batches with speculation stay stable at 8/h, with every merge an exact tested tree", () => {
    const r = simulateQueue({ ...common, seed: 2, config: batched, pullRequests: 800, arrivalsPerHour: 8 });
    expect(r.unstable).toBe(false);
    expect(r.merged + r.dequeued).toBe(800);
    expect(r.dequeueCodes).not.toHaveProperty("PR_UNEXPECTEDLY_FAILED_TO_MERGE");
    expect([r.untestedMerges, r.exactnessViolations]).toEqual([0, 0]);
    expect(r.runsPerMerge).toBeLessThan(1);
  });

  it("the forge's audit counts merges that put an untested tree on the base (reset_on_external_merge: never)", () => {
    const config = queueConfiguration({
      batchSize: { min: 1, max: 1 },
      batchMaxWaitSeconds: 0,
      maxParallelChecks: 2,
      mergeQueue: { reset_on_external_merge: "never" },
    });
    const sim = new Simulation({ seed: 1, config, ciDuration: constantMinutes(30), ciSlots: 4, flakeRate: 0 });
    sim.arrive();
    sim.drain(10 * 60_000);
    sim.externalMerge();
    sim.drain(24 * 3_600_000);
    expect(sim.stats()).toMatchObject({ merges: 1, untestedMerges: 1, exactnessViolations: 0, doubleMerges: 0 });
  });
});
