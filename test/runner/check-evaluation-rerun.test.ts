/**
 * A check re-run for known flaky tests is judged on the re-run's results only, exactly once
 * (docs/merge-queue.md "Verdicts from test results"; docs/reliability.md "Crashes: every effect
 * exactly once"). The round's clock is read when the round begins and the forge later in the
 * round, so the failed run may end after the instant the engine records as the re-run's request:
 * that run must still count as the run before, both for the re-run effect (performed, and replayed
 * after a crash, without running the job twice) and for the check's next evaluation. The hosting
 * platform is a test double holding the draft's check runs; CI Insights' answer is scripted.
 */
import { describe, expect, it } from "vitest";
import pino from "pino";
import type { CheckRun, ForgePort, PullRequestSnapshot } from "../../services/forge/types.js";
import type { EngineEffect, EngineEventInput } from "../../services/engine/index.js";
import { ProtectionCache } from "../../services/runner/protection-cache.js";
import { evaluateCheck } from "../../services/runner/check-evaluation.js";
import { performEffect } from "../../services/runner/effect-executor.js";
import type { TestResultsReader } from "../../services/runner/test-facts.js";
import { loadConfiguration } from "../../services/config/index.js";
import { pullRequest } from "../config/builders.js";
import { batchOf, configuration, QueueHarness, queueRule } from "../engine/fixtures.js";

const RULES = "queue_rules:\n  - name: default\n    merge_conditions:\n      - check-success=test\n";

/** CI Insights: the failing test of job `test` is known flaky on the base branch. */
const knownFlaky: TestResultsReader = async () => ({
  jobs: [{ name: "test", results: "stored", failing: 1, truncated: false }],
  failing: [
    {
      testId: "00000000-0000-4000-8000-000000000001",
      name: "app.flaky",
      file: "tests/flaky.t",
      quarantined: false,
      quarantineId: null,
      health: "flaky",
      flakinessRatio: 0.5,
      failureMessage: "timing",
      job: "test",
      failedInOwnCi: [],
    },
  ],
});

/** A run of the draft's job `test` (url names the run), ended at `endedAt` (epoch ms) unless pending. */
function run(id: number, state: CheckRun["state"], endedAt: number | null): CheckRun {
  const completedAt = endedAt === null ? null : new Date(endedAt);
  return {
    name: "test",
    state,
    description: "",
    detailsUrl: `local-forge://acme/app/check-runs/${id}`,
    app: "ci",
    startedAt: null,
    completedAt,
  };
}

/**
 * The batch [#1, #2] checked on draft #101, and a forge whose draft commit holds `runs.current`
 * (the newest run of `test`); `reruns` counts the forge's re-runs of the job.
 */
async function world() {
  const h = new QueueHarness(
    configuration({ rules: [queueRule({ batch_size: batchOf(2), batch_max_wait_time: 600 })] }),
  );
  h.queue(1);
  h.queue(2);
  h.created("Batch 1", 101);
  const check = h.batch("Batch 1").batch.check!;
  const runs = { current: run(7, "failure", h.now + 14) };
  const reruns: unknown[] = [];
  const draft = (): PullRequestSnapshot =>
    pullRequest({ number: 101, headSha: check.headSha!, head: check.branch!, checks: [runs.current] });
  const forge = {
    getPullRequest: async (_repo: string, n: number) => (n === 101 ? draft() : pullRequest({ number: n })),
    getCommitChecks: async (_repo: string, sha: string) => (sha === check.headSha ? [runs.current] : []),
    getBranchProtection: async () => ({
      requiredChecks: [],
      requiredApprovals: 0,
      requireConversationResolution: false,
    }),
    rerunChecks: async (_repo: string, input: unknown) => {
      reruns.push(input);
    },
  } as unknown as ForgePort;
  const loaded = await loadConfiguration(RULES);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  const evaluate = async (): Promise<EngineEventInput> => {
    const deps = {
      forge,
      repository: "acme/app",
      config: loaded.config,
      protections: new ProtectionCache(forge, "acme/app"),
      now: new Date(h.now),
      freezes: [],
      testResults: knownFlaky,
    };
    const event = await evaluateCheck(deps, h.state, check.id);
    expect(event).not.toBeNull();
    return event!;
  };
  const perform = (effect: EngineEffect, replay: boolean) =>
    performEffect({ forge, repository: "acme/app", logger: pino({ level: "silent" }) }, effect, replay);
  return { h, check, runs, reruns, evaluate, perform };
}

describe("a check re-run for known flaky tests whose failed run ended after the round's clock", () => {
  it("runs the failed job again once, replayed or not, and waits for the re-run's result", async () => {
    const { h, runs, reruns, evaluate, perform } = await world();
    // The round began 14 ms before the run ended; it reads the failure and the engine re-runs the job.
    const effects = h.send(await evaluate());
    const rerun = effects.find((e) => e.kind === "rerun_checks")!;
    expect(rerun).toBeDefined();
    expect(await perform(rerun, false)).toEqual([]);
    expect(reruns).toHaveLength(1);
    // Evaluated before the forge shows the new run: the failed run is the run before, not a result.
    expect(await evaluate()).toMatchObject({ conditions: "pending" });
    // A replay after a crash, the new run queued: nothing more is run.
    runs.current = run(8, "pending", null);
    expect(await perform(rerun, true)).toEqual([]);
    expect(reruns).toHaveLength(1);
    expect(await evaluate()).toMatchObject({ conditions: "pending" });
    // The re-run passes: the check passes and its batch merges, with no bisection.
    runs.current = run(8, "success", h.now + 30_000);
    h.send(await evaluate());
    expect(h.lines(["merge_batch", "action.queue.batch_bisection_start"])).toEqual(["merge Batch 1 [1,2] merge exact"]);
  });

  it("a replay after a crash before the re-run was performed runs it then, once", async () => {
    const { h, reruns, evaluate, perform } = await world();
    const rerun = h.send(await evaluate()).find((e) => e.kind === "rerun_checks")!;
    // Marked started, then the process died: the replay finds the failed run only, and performs.
    expect(await perform(rerun, true)).toEqual([]);
    expect(reruns).toHaveLength(1);
  });

  it("a second failure of the re-run on the known flaky test only is read: the batch is checked again from scratch", async () => {
    const { h, runs, evaluate, perform } = await world();
    const rerun = h.send(await evaluate()).find((e) => e.kind === "rerun_checks")!;
    await perform(rerun, false);
    runs.current = run(8, "failure", h.now + 30_000);
    const effects = h.send(await evaluate());
    const end = effects.find((e) => e.kind === "log" && e.type === "action.queue.checks_end");
    expect(end?.kind === "log" && end.metadata.abort_reason).toBe(
      "failed again after its re-run, only on known flaky tests (1): app.flaky: no culprit, the batch is checked again from scratch (rule `known flaky tests`)",
    );
    expect(h.lines(["create_speculative_check", "action.queue.batch_bisection_start"])).toEqual([
      "create Batch 1 [1,2] ahead []",
    ]);
  });
});
