/**
 * The simulation's `tests` workload (services/simulation/test-workload.ts) and the engine
 * that reads test results in it: failures only on quarantined tests merge tested trees, failures
 * on known flaky tests are run again instead of bisected, failing tests that point to one member
 * of a batch of three or more have it checked alone first; on the same seeds the test-aware engine sends fewer good pull
 * requests back and spends fewer CI runs per merge than the engine blind to tests.
 */
import { describe, expect, it } from "vitest";
import {
  constantMinutes,
  queueConfiguration,
  simulateQueue,
  TestOutcomes,
  type TestWorkload,
  type WhatIfOptions,
} from "../../services/simulation/index.js";

const batched = queueConfiguration({ batchSize: { min: 2, max: 4 }, batchMaxWaitSeconds: 300, maxParallelChecks: 6 });
const common = { seed: 1, config: batched, flakeRate: 0, ciSlots: 10, ciDuration: constantMinutes(30), maxQueued: 300 };
const workload = (over: Partial<TestWorkload>): TestWorkload => ({
  attributable: 0.7,
  spurious: 0.03,
  quarantinedShare: 0.3,
  flakyShare: 0.5,
  aware: true,
  ...over,
});
const run = (over: Partial<WhatIfOptions>) =>
  simulateQueue({ ...common, pullRequests: 300, arrivalsPerHour: 8, breakProbability: 0.05, ...over });

describe("the tests workload's runs", () => {
  it("a run failing only on a quarantined test tested its tree; the aware queue is told which tests failed", () => {
    const tests = new TestOutcomes(workload({ spurious: 1, quarantinedShare: 1, flakyShare: 0 }), 7);
    const outcome = tests.run([], false);
    expect(outcome).toMatchObject({ failed: true, tested: true, spurious: "quarantined" });
    expect(outcome.tests?.withoutQuarantined).toBe(true);
    expect(outcome.tests?.failing).toEqual([expect.objectContaining({ quarantined: true, health: "flaky" })]);
    // A culprit in the tree: a real failure, not a tested tree, even with the quarantined one.
    expect(tests.run([4], false)).toMatchObject({ failed: true, tested: false });
  });

  it("names the culprit whose own CI failed its test; a blind queue gets no test facts", () => {
    const aware = new TestOutcomes(workload({ attributable: 1, spurious: 0 }), 7);
    aware.arrived(4, true);
    const facts = aware.run([4], false).tests!;
    expect(facts.failing).toEqual([
      expect.objectContaining({ name: "broken-by-4", suspects: [{ number: 4, reason: "failed_in_own_ci" }] }),
    ]);
    expect(facts.withoutKnownFlaky).toBe(false);
    const blind = new TestOutcomes(workload({ attributable: 1, spurious: 0, aware: false }), 7);
    blind.arrived(4, true);
    const outcome = blind.run([4], false);
    expect(outcome).toMatchObject({ failed: true, tested: false });
    expect(outcome.tests).toBeUndefined();
  });

  it("gives every attributable culprit, and the share ownCiFailedGood of good pull requests, a failed own CI", () => {
    const signals = (over: Partial<TestWorkload>) => {
      const tests = new TestOutcomes(workload(over), 7);
      tests.arrived(1, true);
      for (let n = 2; n <= 401; n++) tests.arrived(n, false);
      const flagged = (n: number) => tests.riskOf(n).ownCiFailures === 1;
      return { culprit: flagged(1), good: Array.from({ length: 400 }, (_, k) => k + 2).filter(flagged).length };
    };
    expect(signals({ attributable: 1 })).toEqual({ culprit: true, good: 0 });
    expect(signals({ attributable: 0, ownCiFailedGood: 1 })).toEqual({ culprit: false, good: 400 });
    const some = signals({ attributable: 1, ownCiFailedGood: 0.1 });
    expect(some.good).toBeGreaterThan(20);
    expect(some.good).toBeLessThan(60);
  });

  it("a new flaky test is unknown on the base branch (never re-run)", () => {
    const tests = new TestOutcomes(workload({ spurious: 1, quarantinedShare: 0, flakyShare: 0 }), 7);
    expect(tests.run([], false).tests?.failing).toEqual([expect.objectContaining({ health: "unknown" })]);
  });
});

describe("the test-aware engine in the simulation", () => {
  it("merges every good pull request when every run fails on a quarantined test; blind, it merges none", () => {
    const few = { breakProbability: 0, pullRequests: 100 };
    const clean = run(few);
    const quarantined = workload({ spurious: 1, quarantinedShare: 1, flakyShare: 0 });
    const aware = run({ ...few, tests: quarantined });
    expect(aware.merged).toBe(100);
    // The same work as without any failure, within the timing of the passes (a few runs).
    expect(aware.ciRuns).toBeLessThanOrEqual(clean.ciRuns * 1.05);
    expect(aware.untestedMerges).toBe(0);
    const blind = run({ ...few, tests: { ...quarantined, aware: false } });
    expect(blind.merged).toBe(0);
    expect(blind.goodDequeued).toBe(100);
  });

  it("re-runs failures on known flaky tests instead of bisecting them", () => {
    const flaky = workload({ spurious: 0.1, quarantinedShare: 0, flakyShare: 1 });
    const aware = run({ breakProbability: 0, tests: flaky });
    const blind = run({ breakProbability: 0, tests: { ...flaky, aware: false } });
    expect(aware.reruns).toBeGreaterThan(0);
    expect(aware.bisections).toBeLessThan(blind.bisections);
    expect(aware.goodDequeued).toBeLessThan(blind.goodDequeued);
    expect(aware.untestedMerges).toBe(0);
  });

  it("checks the attributable culprit of a batch of three or more alone first; a batch of two is halved", () => {
    const attributable = workload({ attributable: 1, spurious: 0 });
    const opts = { pullRequests: 1000, breakProbability: 0.1 };
    const aware = run({ ...opts, tests: attributable });
    const blind = run({ ...opts, tests: { ...attributable, aware: false } });
    const eliminated = (r: typeof aware) => r.dequeueCodes.DROPPED_BY_BISECTION_ELIMINATION ?? 0;
    // Suspect-first confirms culprits by their own check where halving (blind) eliminates them;
    // halving a batch of two still eliminates its last member when the first passes alone.
    expect(eliminated(aware)).toBeGreaterThan(0);
    expect(eliminated(aware)).toBeLessThan(eliminated(blind));
    expect(aware.dequeueCodes.CHECKS_FAILED).toBeGreaterThan(blind.dequeueCodes.CHECKS_FAILED!);
    expect(aware.dequeued).toBe(aware.dequeueCodes.CHECKS_FAILED! + eliminated(aware));
    expect(aware.goodDequeued).toBe(0);
    expect(aware.exactnessViolations + aware.untestedMerges).toBe(0);
  });

  it("on the same seed, the aware engine sends fewer good pull requests back and runs less per merge", () => {
    const opts = { pullRequests: 1500, tests: workload({}) };
    const aware = run(opts);
    const blind = run({ ...opts, tests: { ...opts.tests, aware: false } });
    expect(aware.goodDequeued).toBeLessThan(blind.goodDequeued);
    expect(aware.runsPerMerge).toBeLessThan(blind.runsPerMerge);
    expect(aware.untestedMerges + blind.untestedMerges).toBe(0);
  });
});
