/**
 * Verdicts from test results (docs/merge-queue.md "Verdicts from test results"): a failed check's
 * test facts pass it when its only failing tests are quarantined, re-run its failed jobs once
 * when every failing test is known flaky, wait a bounded time for results that have not arrived,
 * and otherwise fail it, keeping the member its tests point to for a suspect-first bisection.
 */
import { describe, expect, it } from "vitest";
import {
  apply,
  createState,
  EngineInputError,
  KNOWN_FLAKY_RULE_NAME,
  TEST_RESULTS_WAIT_MS,
  type EngineEffect,
  type FailingTestFact,
  type LogEffect,
  type TestFacts,
} from "../../services/engine/index.js";
import { suspectOf } from "../../services/engine/test-facts.js";
import { batchOf, configuration, QueueHarness, queueRule, STORY, T0 } from "./fixtures.js";
import { logProblems } from "./invariants.js";

const failing = (name: string, over: Partial<FailingTestFact> = {}): FailingTestFact => ({
  name,
  job: "ci",
  quarantined: false,
  health: "healthy",
  suspects: [],
  ...over,
});

/** Facts whose what-if conditions follow from the tests (one failing check, "ci"). */
function facts(tests: FailingTestFact[], over: Partial<TestFacts> = {}): TestFacts {
  return {
    failing: tests,
    awaiting: [],
    withoutQuarantined: tests.every((t) => t.quarantined),
    withoutKnownFlaky: tests.every((t) => t.quarantined || t.health === "flaky"),
    ...over,
  };
}

function failWith(h: QueueHarness, name: string, tests: TestFacts): EngineEffect[] {
  const { batch } = h.batch(name);
  return h.send({
    type: "check_results",
    checkId: batch.check!.id,
    conditions: false,
    checks: [{ name: "ci", description: "tests", url: null, state: "failure", avatar_url: null }],
    tests,
  });
}

const logsOf = (effects: EngineEffect[], type: string) =>
  effects.filter((e): e is LogEffect => e.kind === "log" && e.type === type);

function batchOfFour(parallel = 3): QueueHarness {
  const h = new QueueHarness(
    configuration({
      rules: [queueRule({ batch_size: batchOf(4), batch_max_wait_time: 600 })],
      mergeQueue: { max_parallel_checks: parallel },
    }),
  );
  for (const n of [1, 2, 3, 4]) h.queue(n);
  h.created("Batch 1", 101);
  return h;
}

describe("quarantined failures", () => {
  it("pass the check, name the ignored tests in checks_end and the draft's summary, and merge", () => {
    const h = batchOfFour();
    const effects = failWith(h, "Batch 1", facts([failing("app.slow", { quarantined: true })]));
    const ends = logsOf(effects, "action.queue.checks_end");
    expect(ends.map((e) => e.pullRequest)).toEqual([1, 2, 3, 4]);
    expect(ends[0]!.metadata).toMatchObject({
      aborted: false,
      ignored_failing_tests: ["app.slow"],
      test_results_note: "passed: its only failing tests are quarantined (1): app.slow",
      speculative_check_pull_request: { checks_conclusion: "success" },
    });
    const summary = effects.find((e) => e.kind === "post_summary_check" && e.number === 101);
    expect(summary).toMatchObject({ conclusion: "success" });
    expect(summary?.kind === "post_summary_check" && summary.summary).toContain("app.slow");
    expect(h.lines(["merge_batch"])).toEqual(["merge Batch 1 [1,2,3,4] merge exact"]);
    for (const e of ends) expect(logProblems(e)).toEqual([]);
  });

  it("do not pass a check whose conditions stay false for another reason", () => {
    const h = batchOfFour();
    failWith(
      h,
      "Batch 1",
      facts([failing("app.slow", { quarantined: true })], { withoutQuarantined: false, withoutKnownFlaky: false }),
    );
    expect(h.lines(["merge_batch", "action.queue.batch_bisection_start"])).toHaveLength(4);
    expect(h.picture()).toContain("  bisecting Batch 1 [1,2,3,4] depth 0 held [4]");
  });

  it("wait while the conditions without them are still pending (another check runs)", () => {
    const h = batchOfFour();
    failWith(h, "Batch 1", facts([failing("app.slow", { quarantined: true })], { withoutQuarantined: "pending" }));
    expect(h.picture()).toContain("  Batch 1 [1,2,3,4] draft running");
    expect(logsOf(h.effects, "action.queue.checks_end")).toEqual([]);
  });
});

describe("known flaky failures", () => {
  it("re-run the failed jobs once, logged by the built-in rule, with no bisection; a pass then merges", () => {
    const h = batchOfFour();
    const effects = failWith(h, "Batch 1", facts([failing("app.flaky", { health: "flaky" })]));
    expect(h.lines(STORY)).toEqual(["rerun Batch 1 ci"]);
    const retried = logsOf(effects, "ci_insights.job_retried");
    expect(retried).toHaveLength(1);
    expect(retried[0]).toMatchObject({ pullRequest: 101, baseRef: "main" });
    expect(retried[0]!.metadata).toMatchObject({
      rule_name: KNOWN_FLAKY_RULE_NAME,
      retry_mode: "job",
      retry_attempt: 1,
      max_retry: 1,
      outcome: "retried",
    });
    expect(logProblems(retried[0]!)).toEqual([]);
    expect(effects.find((e) => e.kind === "rerun_checks")).toMatchObject({
      number: 101,
      checks: ["ci"],
      requestedAt: T0,
    });
    expect(h.picture()).toContain("  Batch 1 [1,2,3,4] draft running");
    h.at(40).ci("Batch 1", true);
    expect(h.lines(["merge_batch"])).toEqual(["merge Batch 1 [1,2,3,4] merge exact"]);
    expect(h.history.filter((e) => e.kind === "rerun_checks")).toHaveLength(1);
  });

  it("keep when each failed job's run ended, the forge's clock, for the effect and its replay", () => {
    const h = batchOfFour();
    // The round's clock (T0) is read before the forge: the failed run may end after it.
    const effects = failWith(
      h,
      "Batch 1",
      facts([failing("app.flaky", { health: "flaky" })], { endedAt: { ci: T0 + 14, other: T0 } }),
    );
    expect(effects.find((e) => e.kind === "rerun_checks")).toMatchObject({
      requestedAt: T0,
      replacedEndedAt: { ci: T0 + 14 },
    });
    expect(h.batch("Batch 1").batch.check!.rerun).toMatchObject({ requestedAt: T0, replacedEndedAt: { ci: T0 + 14 } });
  });

  it("check a batch failing twice on known flaky tests only again from scratch: no culprit, nobody sent back", () => {
    // Two members: before, the second failure bisected them and #2, held as the elimination
    // candidate, left with DROPPED_BY_BISECTION_ELIMINATION once #1 alone passed.
    const h = new QueueHarness(
      configuration({ rules: [queueRule({ batch_size: batchOf(2), batch_max_wait_time: 600 })] }),
    );
    h.queue(1);
    h.queue(2);
    h.created("Batch 1", 101);
    const flaky = facts([failing("app.flaky", { health: "flaky" })]);
    failWith(h, "Batch 1", flaky);
    const effects = failWith(h.at(40), "Batch 1", flaky);
    expect(h.lines(STORY)).toEqual([
      "log action.queue.checks_end #1 Batch 1 aborted CHECKS_RETRIED",
      "log action.queue.checks_end #2 Batch 1 aborted CHECKS_RETRIED",
      "cancel Batch 1 (CHECKS_RETRIED)",
      "create Batch 1 [1,2] ahead []",
    ]);
    expect(effects.find((e) => e.kind === "create_speculative_check")).toMatchObject({
      draftBranch: expect.stringMatching(/batch-1-retry-1$/),
    });
    expect(logsOf(effects, "action.queue.checks_end")[0]!.metadata).toMatchObject({
      abort_code: "CHECKS_RETRIED",
      abort_reason:
        "failed again after its re-run, only on known flaky tests (1): app.flaky: no culprit, the batch is checked again from scratch (rule `known flaky tests`)",
    });
    const retried = logsOf(effects, "ci_insights.job_retried");
    expect(retried.map((l) => l.metadata)).toEqual([
      expect.objectContaining({ rule_name: KNOWN_FLAKY_RULE_NAME, retry_mode: "pipeline", retry_attempt: 1 }),
    ]);
    expect(logProblems(retried[0]!)).toEqual([]);
    h.created("Batch 1", 102);
    h.at(70).ci("Batch 1", true);
    expect(h.lines(["merge_batch", "action.queue.leave"])).toEqual(["merge Batch 1 [1,2] merge exact"]);
    expect(h.history.filter((e) => e.kind === "log" && e.type === "action.queue.batch_bisection_start")).toEqual([]);
  });

  it("check a pull request alone that failed twice on known flaky tests only again, instead of sending it back", () => {
    // Before: CHECKS_FAILED after the re-run failed, its own check being the whole batch.
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 2 } }));
    h.queue(1);
    h.created("Batch 1", 101);
    const flaky = facts([failing("app.flaky", { health: "flaky" }), failing("app.slow", { quarantined: true })]);
    failWith(h, "Batch 1", flaky);
    failWith(h.at(40), "Batch 1", flaky);
    expect(h.lines(["action.queue.leave", "create_speculative_check"])).toEqual(["create Batch 1 [1] ahead []"]);
    h.created("Batch 1", 102);
    h.at(70).ci("Batch 1", true);
    expect(h.lines(["merge_batch"])).toEqual(["merge Batch 1 [1] merge exact"]);
    expect(h.history.some((e) => e.kind === "log" && e.type === "action.queue.leave")).toBe(false);
  });

  it("in place, run the failed jobs a second time instead of a fresh check; a third failure is a real one", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 1 } }));
    h.queue(1);
    h.created("Batch 1");
    expect(h.batch("Batch 1").batch.check!.mode).toBe("in_place");
    const flaky = facts([failing("app.flaky", { health: "flaky" })]);
    failWith(h, "Batch 1", flaky);
    const effects = failWith(h.at(40), "Batch 1", flaky);
    expect(h.lines(STORY)).toEqual(["rerun Batch 1 ci"]);
    expect(logsOf(effects, "ci_insights.job_retried").map((l) => l.metadata)).toEqual([
      expect.objectContaining({ retry_mode: "job", retry_attempt: 2, max_retry: 2 }),
    ]);
    failWith(h.at(80), "Batch 1", flaky);
    expect(h.lines(["action.queue.leave"])).toEqual(["log action.queue.leave #1 CHECKS_FAILED"]);
  });

  it("fail for real when the fresh attempt fails twice on known flaky tests too: bisected, naming the re-run", () => {
    const h = batchOfFour();
    const flaky = facts([failing("app.flaky", { health: "flaky" })]);
    failWith(h, "Batch 1", flaky);
    failWith(h.at(40), "Batch 1", flaky);
    h.created("Batch 1", 102);
    expect(failWith(h.at(50), "Batch 1", flaky).filter((e) => e.kind === "rerun_checks")).toHaveLength(1);
    const effects = failWith(h.at(80), "Batch 1", flaky);
    expect(logsOf(effects, "ci_insights.job_retried")).toEqual([]);
    expect(logsOf(effects, "action.queue.checks_end")[0]!.metadata.test_results_note).toBe(
      "failed again after a re-run for known flaky tests: failing tests (1): app.flaky",
    );
    expect(logsOf(effects, "action.queue.batch_bisection_start")).toHaveLength(4);
  });

  it("fail for real on a second failure with a test that is not known flaky: bisected at once", () => {
    const h = batchOfFour();
    failWith(h, "Batch 1", facts([failing("app.flaky", { health: "flaky" })]));
    const effects = failWith(
      h.at(40),
      "Batch 1",
      facts([failing("app.flaky", { health: "flaky" }), failing("app.new", { health: "unknown" })]),
    );
    expect(logsOf(effects, "ci_insights.job_retried")).toEqual([]);
    expect(logsOf(effects, "action.queue.batch_bisection_start")).toHaveLength(4);
  });

  it("never re-run a test never seen on the base branch, nor a mix of flaky and real failures", () => {
    for (const tests of [
      [failing("app.new", { health: "unknown" })],
      [failing("app.flaky", { health: "flaky" }), failing("app.real")],
    ]) {
      const h = batchOfFour();
      const effects = failWith(h, "Batch 1", facts(tests));
      expect(effects.some((e) => e.kind === "rerun_checks")).toBe(false);
      expect(logsOf(effects, "action.queue.batch_bisection_start")).toHaveLength(4);
    }
  });

  it("restart the checks timeout at the re-run, and a re-run that cannot start fails the check", () => {
    const h = new QueueHarness(configuration({ rules: [queueRule({ checks_timeout: 3600 })] }));
    h.queue(1);
    h.created("Batch 1", 101);
    failWith(h.at(50), "Batch 1", facts([failing("app.flaky", { health: "flaky" })]));
    expect(h.lines(["schedule_timer"])).toEqual(["timer checks-timeout at +110m"]);
    const { batch } = h.batch("Batch 1");
    h.send({ type: "check_rerun_failed", checkId: batch.check!.id, message: "Actions: write is missing" });
    const end = logsOf(h.effects, "action.queue.checks_end")[0]!;
    expect(end.metadata.test_results_note).toBe(
      "the re-run for known flaky tests could not start (Actions: write is missing): the failure stands",
    );
    expect(h.lines(["action.queue.leave"])).toEqual(["log action.queue.leave #1 CHECKS_FAILED"]);
  });
});

describe("results that have not arrived", () => {
  it("are waited for, looked for every 10 s, then the check's own conclusion stands and the log says why", () => {
    const h = batchOfFour();
    const awaiting = facts([], { awaiting: ["ci"], withoutQuarantined: false, withoutKnownFlaky: false });
    failWith(h, "Batch 1", awaiting);
    expect(h.picture()).toContain("  Batch 1 [1,2,3,4] draft running");
    const timer = h.effects.find((e) => e.kind === "schedule_timer" && e.key.startsWith("test-results/"));
    expect(timer).toMatchObject({ dueAt: T0 + 10_000 });
    h.now = T0 + TEST_RESULTS_WAIT_MS - 1;
    failWith(h, "Batch 1", awaiting);
    expect(h.picture()).toContain("  Batch 1 [1,2,3,4] draft running");
    h.now = T0 + TEST_RESULTS_WAIT_MS;
    const effects = failWith(h, "Batch 1", awaiting);
    expect(logsOf(effects, "action.queue.checks_end")[0]!.metadata.test_results_note).toBe(
      "the test results of ci did not arrive within 120 s: the check's own conclusion stands",
    );
    expect(h.lines(["cancel_timer"])).toEqual(["cancel timer test-results"]);
  });

  it("are decided as soon as they arrive", () => {
    const h = batchOfFour();
    failWith(h, "Batch 1", facts([], { awaiting: ["ci"], withoutQuarantined: false, withoutKnownFlaky: false }));
    h.at(1);
    failWith(h, "Batch 1", facts([failing("app.slow", { quarantined: true })]));
    expect(h.lines(["merge_batch"])).toEqual(["merge Batch 1 [1,2,3,4] merge exact"]);
  });
});

describe("suspect-first bisection", () => {
  const own = (n: number) => [{ number: n, reason: "failed_in_own_ci" as const }];

  it("checks the suspect alone and the rest together in the same round; a failing suspect leaves after it", () => {
    const h = batchOfFour();
    const effects = failWith(h, "Batch 1", facts([failing("app.login", { suspects: own(3) })]));
    const starts = logsOf(effects, "action.queue.batch_bisection_start");
    expect(starts.map((s) => s.metadata)).toEqual(
      [1, 2, 3, 4].map(() =>
        expect.objectContaining({
          split_strategy: "suspect_first",
          suspect_pr_number: 3,
          suspect_reason: "failed_in_own_ci",
        }),
      ),
    );
    for (const s of starts) expect(logProblems(s)).toEqual([]);
    expect(h.lines(["create_speculative_check"])).toEqual([
      "create Sub-batch 1.1 [3] ahead []",
      "create Sub-batch 1.2 [1,2,4] ahead []",
    ]);
    expect(h.picture()).toContain("  bisecting Batch 1 [1,2,3,4] depth 0 held []");
    const reasons = [...h.created("Sub-batch 1.1", 111), ...h.created("Sub-batch 1.2", 112)]
      .filter((e): e is LogEffect => e.kind === "log" && e.type === "action.queue.checks_start")
      .map((e) => [e.pullRequest, e.metadata.start_reason]);
    expect(reasons).toEqual([
      [3, "Bisection of Batch 1: checking #3 alone, which its failing tests point to (it failed them in its own CI)"],
      [1, "Bisection of Batch 1: checking the rest of the failed batch without #3"],
      [2, "Bisection of Batch 1: checking the rest of the failed batch without #3"],
      [4, "Bisection of Batch 1: checking the rest of the failed batch without #3"],
    ]);
    h.at(60).ci("Sub-batch 1.1", false);
    expect(h.lines(["action.queue.leave"])).toEqual(["log action.queue.leave #3 CHECKS_FAILED"]);
    expect(h.lines(["create_speculative_check"])).toEqual(["create Batch 2 [1,2,4] ahead []"]);
  });

  it("falls back to halving the rest when the suspect passes and the rest fails", () => {
    const h = batchOfFour();
    failWith(h, "Batch 1", facts([failing("app.login", { suspects: own(3) })]));
    h.created("Sub-batch 1.1", 111);
    h.created("Sub-batch 1.2", 112);
    h.at(50).ci("Sub-batch 1.2", false);
    // The rest is judged once the suspect's own check concluded.
    expect(h.lines(["action.queue.batch_bisection_start"])).toEqual([]);
    h.at(60).ci("Sub-batch 1.1", true);
    const starts = logsOf(h.effects, "action.queue.batch_bisection_start");
    expect(starts.map((s) => [s.pullRequest, s.metadata.split_strategy, s.metadata.bisection_depth])).toEqual([
      [1, "halving", 1],
      [2, "halving", 1],
      [4, "halving", 1],
    ]);
  });

  it("drops the suspect by elimination when both sides pass alone", () => {
    const h = batchOfFour();
    failWith(h, "Batch 1", facts([failing("app.login", { suspects: own(3) })]));
    h.created("Sub-batch 1.1", 111);
    h.created("Sub-batch 1.2", 112);
    h.at(50).ci("Sub-batch 1.1", true);
    h.at(60).ci("Sub-batch 1.2", true);
    expect(h.lines(["action.queue.leave"])).toEqual(["log action.queue.leave #3 DROPPED_BY_BISECTION_ELIMINATION"]);
    h.mergeRequested();
    expect(Object.keys(h.state.pulls)).toEqual([]);
  });

  it("halves a batch of two even when its tests point to a member: one run names the culprit", () => {
    const h = new QueueHarness(
      configuration({ rules: [queueRule({ batch_size: batchOf(2), batch_max_wait_time: 600 })] }),
    );
    for (const n of [1, 2]) h.queue(n);
    h.created("Batch 1", 101);
    const effects = failWith(h, "Batch 1", facts([failing("app.login", { suspects: own(1) })]));
    expect(logsOf(effects, "action.queue.batch_bisection_start")[0]!.metadata).toMatchObject({
      split_strategy: "halving",
      suspect_pr_number: null,
    });
    // The suspect, first, is checked alone; the last member is held as the elimination candidate.
    expect(h.lines(["create_speculative_check"])).toEqual(["create Sub-batch 1.1 [1] ahead []"]);
    h.created("Sub-batch 1.1", 111);
    h.at(60).ci("Sub-batch 1.1", false);
    expect(h.lines(["action.queue.leave"])).toEqual(["log action.queue.leave #1 CHECKS_FAILED"]);
    expect(h.lines(["create_speculative_check"])).toEqual(["create Batch 2 [2] ahead []"]);
  });

  it("halves as before when the tests point nowhere", () => {
    const h = batchOfFour();
    const effects = failWith(h, "Batch 1", facts([failing("app.login")]));
    expect(logsOf(effects, "action.queue.batch_bisection_start")[0]!.metadata).toMatchObject({
      split_strategy: "halving",
      suspect_pr_number: null,
      suspect_reason: null,
    });
  });
});

describe("the suspect a failure points to", () => {
  const members = [1, 2, 3];
  const t = (suspects: FailingTestFact["suspects"], over: Partial<FailingTestFact> = {}) =>
    failing("t", { suspects, ...over });
  // biome-ignore format: a table, one row per line
  const cases: [string, FailingTestFact[], number | null][] = [
    ["its own CI failed the test", [t([{ number: 2, reason: "failed_in_own_ci" }])], 2],
    ["the only member touching the test's file", [t([{ number: 1, reason: "touches_test_file" }])], 1],
    ["two members touch the file", [t([{ number: 1, reason: "touches_test_file" }, { number: 2, reason: "touches_test_file" }])], null],
    ["own CI wins over touching the file", [t([{ number: 1, reason: "touches_test_file" }, { number: 3, reason: "failed_in_own_ci" }])], 3],
    ["two tests point to different members", [t([{ number: 1, reason: "failed_in_own_ci" }]), t([{ number: 2, reason: "failed_in_own_ci" }])], null],
    ["a test pointing nowhere says nothing", [t([]), t([{ number: 2, reason: "failed_in_own_ci" }])], 2],
    ["a quarantined test says nothing", [t([{ number: 1, reason: "failed_in_own_ci" }], { quarantined: true }), t([{ number: 2, reason: "failed_in_own_ci" }])], 2],
    ["a suspect outside the batch", [t([{ number: 9, reason: "failed_in_own_ci" }])], null],
  ];
  it.each(cases)("%s", (_name, tests, expected) => {
    expect(suspectOf(facts(tests), members)?.number ?? null).toBe(expected);
  });

  it("is none when more tests failed than were listed", () => {
    expect(suspectOf(facts([t([{ number: 2, reason: "failed_in_own_ci" }])], { failingCount: 500 }), members)).toBe(
      null,
    );
  });
});

describe("the facts at the engine's edge", () => {
  it("refuses a malformed test health, naming the field, and changes nothing", () => {
    const state = createState("acme/app", configuration());
    const event = {
      type: "check_results",
      checkId: "c",
      conditions: false,
      checks: [],
      tests: {
        failing: [{ name: "t", job: "ci", quarantined: false, health: "sick" }],
        withoutQuarantined: false,
        withoutKnownFlaky: false,
      },
    };
    expect(() => apply(state, event, T0)).toThrow(EngineInputError);
    expect(() => apply(state, event, T0)).toThrow("tests.failing.0.health");
  });
});
