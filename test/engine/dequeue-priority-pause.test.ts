/**
 * Scenario tests of leaving the queue (docs/domain.md §3.6), priorities with interruption
 * (§3.2) and pause (§3.7).
 */
import { describe, expect, it } from "vitest";
import { apply, dequeueImpact, NotQueuedError, pullView } from "../../services/engine/index.js";
import { configuration, pauseEvent, QueueHarness, sha, STORY, unpauseEvent } from "./fixtures.js";

const TRAIN = "train main/__default__ base 074a83b";
const dequeue = (number: number) => ({
  type: "dequeue_requested" as const,
  number,
  trigger: "@ada",
  source: "api" as const,
});

describe("leaving the queue", () => {
  it("a manual dequeue logs action.dequeue, leaves with PR_MANUALLY_DEQUEUED, re-embarks from its position and dequeues stacked successors", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 3 } }));
    h.queue(1);
    h.queue(2);
    h.queue(3, { dependsOn: [2] });
    h.queue(4);
    h.created("Batch 1", 101);
    h.created("Batch 2", 102);
    h.created("Batch 3", 103);
    const predicted = dequeueImpact(h.state, 2, h.now);
    h.at(10).send(dequeue(2));
    expect(h.lines(STORY)).toEqual([
      "log action.dequeue #2",
      "log action.queue.checks_end #2 Batch 2 aborted PR_MANUALLY_DEQUEUED",
      "cancel Batch 2 (PR_MANUALLY_DEQUEUED)",
      "log action.queue.checks_end #3 Batch 3 aborted PR_AHEAD_DEQUEUED",
      "cancel Batch 3 (PR_AHEAD_DEQUEUED)",
      "log action.queue.leave #2 PR_MANUALLY_DEQUEUED",
      "log action.queue.leave #3 STACK_PREDECESSOR_DEQUEUED",
      "create Batch 4 [4] ahead [1]",
    ]);
    expect(h.picture()).toEqual([TRAIN, "  Batch 1 [1] draft running", "  Batch 4 [4] draft creating on Batch 1"]);
    expect(predicted).toEqual({
      interruptedBatches: 2,
      recheckedPullRequests: 0,
      cascadedPullRequests: 1,
      rechecked: [],
      cascaded: [3],
    });
    const leave = h.effects.find((e) => e.kind === "log" && e.type === "action.queue.leave");
    expect(leave?.kind === "log" && leave.trigger).toBe("@ada");
  });

  it("counts the other pull requests of an interrupted batch as rechecked", () => {
    const h = new QueueHarness(
      configuration({
        rules: [{ ...configuration().queue_rules[0]!, batch_size: { min: 2, max: 2 }, batch_max_wait_time: 600 }],
      }),
    );
    h.queue(1);
    h.queue(2);
    h.created("Batch 1");
    expect(dequeueImpact(h.state, 1, h.now)).toEqual({
      interruptedBatches: 1,
      recheckedPullRequests: 1,
      cascadedPullRequests: 0,
      rechecked: [2],
      cascaded: [],
    });
  });

  it("refuses to dequeue a pull request in no queue, and changes nothing", () => {
    const h = new QueueHarness();
    h.queue(1);
    const before = structuredClone(h.state);
    expect(() => apply(h.state, dequeue(9), h.now)).toThrow(NotQueuedError);
    expect(() => dequeueImpact(h.state, 9, h.now)).toThrow("pull request #9 is not in any merge queue");
    expect(h.state).toEqual(before);
  });

  it("a push to a queued pull request dequeues it with PULL_REQUEST_UPDATED; the same head changes nothing", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 2 } }));
    h.queue(1);
    h.send({ type: "pull_request_updated", number: 1, headSha: sha("head-1") });
    expect(h.effects).toEqual([]);
    h.send({ type: "pull_request_updated", number: 1, headSha: sha("new head") });
    expect(h.lines(STORY)).toEqual([
      "cancel Batch 1 (PULL_REQUEST_UPDATED)",
      "log action.queue.leave #1 PULL_REQUEST_UPDATED",
    ]);
  });

  it("queue conditions turning false dequeue with PR_DEQUEUED; pending keeps the pull request", () => {
    const h = new QueueHarness();
    h.queue(1);
    h.send({ type: "queue_conditions_evaluated", number: 1, result: "pending" });
    expect(h.effects).toEqual([]);
    h.send({ type: "queue_conditions_evaluated", number: 1, result: false });
    expect(h.logs()).toContain("log action.queue.leave #1 PR_DEQUEUED");
  });

  it("a pull request whose batch is being merged cannot be dequeued any more: the merge decides", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 2 } }));
    h.queue(1);
    h.created("Batch 1");
    h.ci("Batch 1", true);
    h.send(dequeue(1));
    expect(h.lines(STORY)).toEqual(["log action.dequeue #1"]);
    h.merged("Batch 1");
    expect(h.logs()).toContain("log action.queue.leave #1 PR_MERGED");
  });

  it("a merge that fails on a pull request dequeues it (PR_UNEXPECTEDLY_FAILED_TO_MERGE) and re-embarks its batch-mates at once", () => {
    const h = new QueueHarness(
      configuration({
        rules: [{ ...configuration().queue_rules[0]!, batch_size: { min: 2, max: 2 }, batch_max_wait_time: 600 }],
      }),
    );
    h.queue(1);
    h.queue(2);
    h.created("Batch 1");
    h.at(30).ci("Batch 1", true);
    h.send({
      type: "merge_failed",
      batchId: h.batch("Batch 1").batch.id,
      reason: "conflict",
      pullRequest: 2,
      currentBaseSha: null,
      message: "merge conflict in app.ts",
    });
    expect(h.lines(STORY)).toEqual([
      "cancel Batch 1 (PR_AHEAD_DEQUEUED)",
      "log action.queue.leave #2 PR_UNEXPECTEDLY_FAILED_TO_MERGE",
      "create Batch 2 [1] ahead []",
    ]);
  });
});

describe("priorities", () => {
  it("a higher-priority pull request allowed to interrupt stops the first batch holding a lower priority, and those behind it", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 2 } }));
    for (const n of [1, 2, 3]) h.queue(n);
    h.created("Batch 1");
    h.created("Batch 2");
    h.at(5).queue(4, { priority: 3000, priorityRuleName: "hotfix", allowChecksInterruption: true });
    expect(h.lines(STORY)).toEqual([
      "log action.queue.checks_end #1 Batch 1 aborted PR_WITH_HIGHER_PRIORITY_QUEUED",
      "cancel Batch 1 (PR_WITH_HIGHER_PRIORITY_QUEUED)",
      "log action.queue.checks_end #2 Batch 2 aborted PR_WITH_HIGHER_PRIORITY_QUEUED",
      "cancel Batch 2 (PR_WITH_HIGHER_PRIORITY_QUEUED)",
      "create Batch 3 [4] ahead []",
      "create Batch 4 [1] ahead [4]",
    ]);
  });

  it("without interruption a higher priority waits at the head of the waiting list", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 1 } }));
    for (const n of [1, 2, 3]) h.queue(n);
    h.at(6).queue(4, { priority: 3000, priorityRuleName: "hotfix" });
    expect(h.lines(STORY)).toEqual([]);
    expect([1, 2, 3, 4].map((n) => pullView(h.state, n, h.now)?.position)).toEqual([0, 2, 3, 1]);
  });
});

describe("pause", () => {
  it("stops draft checks and merges but keeps pull requests queued; unpausing restarts them", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 2 } })).firstOfTwoMerged();
    h.at(21).queue(3);
    h.at(22).send(pauseEvent());
    expect(h.lines(STORY)).toEqual([
      "log action.queue.checks_end #2 Batch 2 aborted PR_CHECKS_STOPPED_BECAUSE_MERGE_QUEUE_PAUSE",
      "cancel Batch 2 (PR_CHECKS_STOPPED_BECAUSE_MERGE_QUEUE_PAUSE)",
      "cancel Batch 3 (PR_CHECKS_STOPPED_BECAUSE_MERGE_QUEUE_PAUSE)",
    ]);
    h.at(23).queue(4);
    expect(h.picture()).toEqual(["paused: release freeze", "train main/__default__ base 27b469f", "  waiting [2,3,4]"]);
    h.at(30).send(unpauseEvent());
    expect(h.lines(STORY)).toEqual(["create Batch 4 [2] ahead []", "create Batch 5 [3] ahead [2]"]);
  });

  it("does not cancel an in-place check, but holds its merge until unpaused", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 1 } }));
    h.queue(1);
    h.created("Batch 1");
    h.send(pauseEvent());
    expect(h.picture()).toEqual(["paused: release freeze", TRAIN, "  Batch 1 [1] in place running"]);
    h.ci("Batch 1", true);
    expect(h.lines(STORY)).toEqual(["log action.queue.checks_end #1 Batch 1 success"]);
    h.send(unpauseEvent());
    expect(h.lines(STORY)).toEqual(["merge Batch 1 [1] merge exact"]);
  });
});
