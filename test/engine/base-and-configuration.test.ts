/**
 * Scenario tests of base branch moves (reset_on_external_merge, docs/domain.md §3.6), conflicts
 * and draft creation failures (§3.4), configuration changes and re-queueing (§3.2, §3.6).
 */
import { describe, expect, it } from "vitest";
import { batchOf, configuration, QueueHarness, queueRule, sha, STORY } from "./fixtures.js";

const externalPush = { type: "base_branch_moved" as const, branch: "main", sha: sha("hotfix") };
const checkFailed = (
  h: QueueHarness,
  batch: string,
  reason: "conflict_with_pull_ahead" | "conflict_with_base" | "error",
  pullRequest: number | null,
) =>
  h.send({
    type: "speculative_check_failed",
    checkId: h.batch(batch).batch.check!.id,
    reason,
    pullRequest,
    message: reason === "error" ? "API rate limited" : "",
  });

describe("base branch moves", () => {
  it("an external push resets every batch with reset_on_external_merge always (MERGE_QUEUE_RESET)", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 2 } }));
    h.queue(1);
    h.queue(2);
    h.created("Batch 1", 101);
    h.created("Batch 2", 102);
    h.at(5).send(externalPush);
    expect(h.lines(STORY)).toEqual([
      "log action.queue.checks_end #1 Batch 1 aborted MERGE_QUEUE_RESET",
      "cancel Batch 1 (MERGE_QUEUE_RESET)",
      "log action.queue.checks_end #2 Batch 2 aborted MERGE_QUEUE_RESET",
      "cancel Batch 2 (MERGE_QUEUE_RESET)",
      "create Batch 3 [1] ahead []",
      "create Batch 4 [2] ahead [1]",
    ]);
    const create = h.effects.find((e) => e.kind === "create_speculative_check");
    expect(create?.kind === "create_speculative_check" && create.baseSha).toBe(sha("hotfix"));
  });

  it("with reset_on_external_merge never the batches keep running, and their merge says it is not the tested tree", () => {
    const h = new QueueHarness(
      configuration({ mergeQueue: { max_parallel_checks: 2, reset_on_external_merge: "never" } }),
    );
    h.queue(1);
    h.created("Batch 1", 101);
    h.at(5).send(externalPush);
    expect(h.effects).toEqual([]);
    h.at(30).ci("Batch 1", true);
    const merge = h.effects.find((e) => e.kind === "merge_batch");
    expect(
      merge?.kind === "merge_batch" && {
        expected: merge.expectedBaseSha,
        checked: merge.checkBaseSha,
        exact: merge.exactTree,
      },
    ).toEqual({ expected: sha("hotfix"), checked: sha("base"), exact: false });
  });

  it("the queue's own push is expected, even when reported before the merge result", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 2 } }));
    h.queue(1);
    h.queue(2);
    h.created("Batch 1", 101);
    h.created("Batch 2", 102);
    h.ci("Batch 1", true);
    h.send({ type: "base_branch_moved", branch: "main", sha: sha("own merge") });
    expect(h.effects).toEqual([]);
    h.send({ type: "merge_completed", batchId: h.batch("Batch 1").batch.id, newBaseSha: sha("own merge") });
    expect(h.lines(STORY)).toEqual(["close #101", "log action.queue.merged #1", "log action.queue.leave #1 PR_MERGED"]);
    expect(h.picture()).toEqual([
      `train main/__default__ base ${sha("own merge").slice(0, 7)}`,
      "  Batch 2 [2] draft running",
    ]);
  });
});

describe("conflicts and draft creation failures", () => {
  it("defers a conflict with the pull requests ahead until they leave, then retries", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 2 } }));
    h.queue(1);
    h.queue(2);
    h.created("Batch 1", 101);
    checkFailed(h, "Batch 2", "conflict_with_pull_ahead", 2);
    expect(h.lines(STORY)).toEqual(["log action.queue.conflict_deferred #2", "cancel Batch 2 (BATCH_AHEAD_FAILED)"]);
    const deferred = h.effects.find((e) => e.kind === "log");
    expect(deferred?.kind === "log" && deferred.metadata.blocking_pull_request_numbers).toEqual([1]);
    expect(h.picture()).toEqual([
      "train main/__default__ base 074a83b",
      "  Batch 1 [1] draft running",
      "  waiting [2]",
    ]);
    h.ci("Batch 1", true);
    h.merged("Batch 1");
    expect(h.lines(STORY)).toEqual([
      "close #101",
      "log action.queue.merged #1",
      "log action.queue.leave #1 PR_MERGED",
      "create Batch 3 [2] ahead []",
    ]);
  });

  it("dequeues a conflict with the base alone (CONFLICT_WITH_BASE_BRANCH)", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 2 } }));
    h.queue(1);
    checkFailed(h, "Batch 1", "conflict_with_base", 1);
    expect(h.lines(STORY)).toEqual([
      "cancel Batch 1 (CONFLICT_WITH_BASE_BRANCH)",
      "log action.queue.leave #1 CONFLICT_WITH_BASE_BRANCH",
    ]);
  });

  it("postpones the checks after a draft creation failure, then dequeues after three (DRAFT_PULL_REQUEST_CREATION_FAILED)", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 2 } }));
    h.queue(1);
    checkFailed(h, "Batch 1", "error", null);
    expect(h.lines(STORY)).toEqual(["log action.queue.checks_postponed #1 Batch 1", "timer create-retry at +0.5m"]);
    h.at(1).send({ type: "timer_fired", key: Object.keys(h.state.timers)[0]! });
    expect(h.lines(STORY)).toEqual(["create Batch 1 [1] ahead []"]);
    checkFailed(h, "Batch 1", "error", null);
    expect(h.lines(STORY)).toEqual(["log action.queue.checks_postponed #1 Batch 1", "timer create-retry at +2m"]);
    h.at(2).send({ type: "timer_fired", key: Object.keys(h.state.timers)[0]! });
    checkFailed(h, "Batch 1", "error", null);
    expect(h.lines(STORY)).toEqual([
      "log action.queue.checks_postponed #1 Batch 1",
      "cancel Batch 1 (DRAFT_PULL_REQUEST_CREATION_FAILED)",
      "log action.queue.leave #1 DRAFT_PULL_REQUEST_CREATION_FAILED",
    ]);
    expect(
      h.history
        .filter((e) => e.kind === "log" && e.type === "action.queue.checks_postponed")
        .map((e) => e.kind === "log" && e.metadata.attempt),
    ).toEqual([1, 2, 3]);
  });
});

describe("configuration changes and re-queueing", () => {
  const leaf = {
    kind: "leaf" as const,
    text: "check-success=ci",
    attribute: "check-success",
    negate: false,
    length: false,
    operator: "=" as const,
    value: { type: "string" as const, value: "ci" },
  };

  it("dequeues the pull requests of a removed queue rule, re-embarks checks over a smaller max_parallel_checks, and dequeues checks a merge-condition change invalidates", () => {
    const h = new QueueHarness(
      configuration({ rules: [queueRule(), queueRule({ name: "docs" })], mergeQueue: { max_parallel_checks: 3 } }),
    );
    h.queue(1);
    h.queue(2);
    h.queue(3);
    h.queue(4, { queueRule: "docs" });
    for (const name of ["Batch 1", "Batch 2", "Batch 3"]) h.created(name);
    h.send({
      type: "configuration_changed",
      config: configuration({ rules: [queueRule()], mergeQueue: { max_parallel_checks: 3 } }),
    });
    expect(h.lines(STORY)).toEqual(["log action.queue.leave #4 QUEUE_RULE_MISSING"]);
    h.send({
      type: "configuration_changed",
      config: configuration({ rules: [queueRule()], mergeQueue: { max_parallel_checks: 1 } }),
    });
    expect(h.lines(STORY)).toEqual([
      "log action.queue.checks_end #2 Batch 2 aborted SPECULATIVE_CHECK_NUMBER_REDUCED",
      "cancel Batch 2 (SPECULATIVE_CHECK_NUMBER_REDUCED)",
      "log action.queue.checks_end #3 Batch 3 aborted SPECULATIVE_CHECK_NUMBER_REDUCED",
      "cancel Batch 3 (SPECULATIVE_CHECK_NUMBER_REDUCED)",
    ]);
    h.send({
      type: "configuration_changed",
      config: configuration({
        rules: [queueRule({ merge_conditions: [leaf] })],
        mergeQueue: { max_parallel_checks: 1 },
      }),
    });
    expect(h.lines(STORY)).toEqual([
      "log action.queue.checks_end #1 Batch 1 aborted CONFIGURATION_CHANGED",
      "cancel Batch 1 (CONFIGURATION_CHANGED)",
      "log action.queue.leave #1 CONFIGURATION_CHANGED",
      "create Batch 4 [2] ahead []",
    ]);
  });

  it("refuses a configuration that breaks the engine's rules, naming the field", () => {
    const h = new QueueHarness();
    expect(() =>
      h.send({ type: "configuration_changed", config: configuration({ rules: [queueRule(), queueRule()] }) }),
    ).toThrow('config.queue_rules.1.name: duplicate queue rule name "default"');
    expect(() =>
      h.send({
        type: "configuration_changed",
        config: configuration({ rules: [queueRule({ batch_size: { min: 3, max: 2 } })] }),
      }),
    ).toThrow(/config\.queue_rules\.0\.batch_size/);
  });

  it("queueing again with the same rule and priority changes nothing; another priority leaves and enters again", () => {
    const h = new QueueHarness(
      configuration({ rules: [queueRule({ batch_size: batchOf(1) })], mergeQueue: { max_parallel_checks: 2 } }),
    );
    h.queue(1);
    h.queue(1);
    expect(h.effects).toEqual([]);
    h.queue(1, { priority: 3000 });
    expect(h.logs()).toEqual(
      expect.arrayContaining(["log action.queue.leave #1 PR_DEQUEUED", "log action.queue.enter #1"]),
    );
    expect(h.picture()).toEqual(["train main/__default__ base 074a83b", "  Batch 2 [1] draft creating"]);
  });
});
