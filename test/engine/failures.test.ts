/**
 * Scenario tests of failure handling (docs/domain.md §3.4-3.5): culprits, rechecking the
 * batches behind a failure, bisection into cumulative prefixes, elimination, resolution attempts,
 * retries, timeouts, waiting for the batches ahead, and skip_intermediate_results.
 */
import { describe, expect, it } from "vitest";
import { batchOf, configuration, QueueHarness, queueRule, STORY } from "./fixtures.js";

const TRAIN = "train main/__default__ base 074a83b";

describe("failures", () => {
  it("dequeues the culprit of a failed single-pull-request batch and rechecks the batches behind without it", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 3 } }));
    for (const n of [1, 2, 3]) h.queue(n);
    h.created("Batch 1", 101);
    h.created("Batch 2", 102);
    h.created("Batch 3", 103);
    h.at(30).ci("Batch 1", false);
    expect(h.lines(STORY)).toEqual([
      "log action.queue.checks_end #1 Batch 1 failure",
      "log action.queue.checks_end #2 Batch 2 aborted BATCH_AHEAD_FAILED",
      "cancel Batch 2 (BATCH_AHEAD_FAILED)",
      "log action.queue.checks_end #3 Batch 3 aborted BATCH_AHEAD_FAILED",
      "cancel Batch 3 (BATCH_AHEAD_FAILED)",
      "cancel Batch 1 (culprit found)",
      "log action.queue.leave #1 CHECKS_FAILED",
      "create Batch 2 [2] ahead []",
      "create Batch 3 [3] ahead [2]",
    ]);
    expect(h.picture()).toEqual([TRAIN, "  Batch 2 [2] draft creating", "  Batch 3 [3] draft creating on Batch 2"]);
  });

  it("bisects a failed batch of four into cumulative prefixes and finds the culprit in the first failing one", () => {
    const h = new QueueHarness(
      configuration({
        rules: [queueRule({ batch_size: batchOf(4), batch_max_wait_time: 600 })],
        mergeQueue: { max_parallel_checks: 3 },
      }),
    );
    for (const n of [1, 2, 3, 4, 5]) h.queue(n);
    h.created("Batch 1", 101);
    h.at(30).ci("Batch 1", false);
    expect(h.lines(STORY)).toEqual([
      ...[1, 2, 3, 4].map((n) => `log action.queue.checks_end #${n} Batch 1 failure`),
      "cancel Batch 1 (bisection)",
      ...[1, 2, 3, 4].map((n) => `log action.queue.batch_bisection_start #${n} Batch 1`),
      "create Sub-batch 1.1 [1] ahead []",
      "create Sub-batch 1.2 [2] ahead [1]",
      "create Sub-batch 1.3 [3] ahead [1,2]",
      // Sub-batches take no checks slot and nothing is built on them: #5 goes on.
      "create Batch 2 [5] ahead []",
      "cancel timer batch-wait",
    ]);
    expect(h.picture()).toEqual([
      TRAIN,
      "  Sub-batch 1.1 [1] draft creating",
      "  Sub-batch 1.2 [2] draft creating on Sub-batch 1.1",
      "  Sub-batch 1.3 [3] draft creating on Sub-batch 1.1+Sub-batch 1.2",
      "  Batch 2 [5] draft creating",
      "  bisecting Batch 1 [1,2,3,4] depth 0 held [4]",
    ]);
    h.created("Sub-batch 1.1", 111);
    h.created("Sub-batch 1.2", 112);
    h.created("Sub-batch 1.3", 113);
    h.at(60).ci("Sub-batch 1.1", true);
    h.at(61).ci("Sub-batch 1.2", false);
    expect(h.lines(STORY)).toEqual([
      "log action.queue.checks_end #2 Sub-batch 1.2 failure",
      "log action.queue.checks_end #3 Sub-batch 1.3 aborted BATCH_AHEAD_FAILED",
      "cancel Sub-batch 1.3 (BATCH_AHEAD_FAILED)",
      // #1 passed, but Batch 2 is being checked: merging #1 now would invalidate it, so #1 is re-embarked.
      "cancel Sub-batch 1.1 (BATCH_AHEAD_FAILED)",
      "cancel Sub-batch 1.2 (culprit found)",
      ...[1, 2, 3, 4].map((n) => `log action.queue.batch_bisection_end #${n} Batch 1 culprits [2]`),
      "log action.queue.leave #2 CHECKS_FAILED",
      "create Batch 3 [1,3,4] ahead [5]",
    ]);
    const end = h.effects.find((e) => e.kind === "log" && e.type === "action.queue.batch_bisection_end");
    expect(end?.kind === "log" && end.metadata).toMatchObject({
      culprit_found: true,
      confirmed_culprit_pr_numbers: [2],
      dropped_unverified_pr_numbers: [],
      remaining_pr_numbers: [1, 3, 4],
      batch_pull_request: 101,
    });
  });

  it("drops the last pull request by elimination when every prefix passes, and merges the others from the prefixes", () => {
    const h = new QueueHarness(
      configuration({
        rules: [queueRule({ batch_size: batchOf(3), batch_max_wait_time: 600 })],
        mergeQueue: { max_parallel_checks: 2 },
      }),
    );
    for (const n of [1, 2, 3]) h.queue(n);
    h.created("Batch 1", 101);
    h.at(30).ci("Batch 1", false);
    h.created("Sub-batch 1.1", 111);
    h.created("Sub-batch 1.2", 112);
    h.at(60).ci("Sub-batch 1.1", true);
    h.at(61).ci("Sub-batch 1.2", true);
    expect(h.lines(STORY)).toEqual([
      "log action.queue.checks_end #2 Sub-batch 1.2 success",
      ...[1, 2, 3].map((n) => `log action.queue.batch_bisection_end #${n} Batch 1 culprits [3]`),
      "log action.queue.leave #3 DROPPED_BY_BISECTION_ELIMINATION",
      "merge Sub-batch 1.1 [1] merge exact",
    ]);
    h.mergeRequested();
    expect(
      h.history
        .filter((e) => e.kind === "log" && e.type === "action.queue.leave")
        .map((e) => e.kind === "log" && `${e.pullRequest} ${e.metadata.dequeue_code}`),
    ).toEqual(["3 DROPPED_BY_BISECTION_ELIMINATION", "1 PR_MERGED", "2 PR_MERGED"]);
    expect(h.picture()).toEqual([]);
  });

  it("dequeues every unresolved pull request once batch_max_failure_resolution_attempts is reached", () => {
    const h = new QueueHarness(
      configuration({
        rules: [
          queueRule({ batch_size: batchOf(4), batch_max_wait_time: 600, batch_max_failure_resolution_attempts: 1 }),
        ],
        mergeQueue: { max_parallel_checks: 2 },
      }),
    );
    for (const n of [1, 2, 3, 4]) h.queue(n);
    h.created("Batch 1");
    h.at(30).ci("Batch 1", false);
    h.created("Sub-batch 1.1");
    h.created("Sub-batch 1.2");
    h.at(60).ci("Sub-batch 1.1", false);
    expect(h.logs().filter((l) => l.includes("leave"))).toEqual(
      [1, 2, 3, 4].map((n) => `log action.queue.leave #${n} BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS`),
    );
    const end = h.effects.find((e) => e.kind === "log" && e.type === "action.queue.batch_bisection_end");
    expect(end?.kind === "log" && end.metadata.max_failure_resolution_reached).toBe(true);
  });

  it("dequeues a whole failed batch at once with batch_max_failure_resolution_attempts 0", () => {
    const h = new QueueHarness(
      configuration({
        rules: [
          queueRule({ batch_size: batchOf(2), batch_max_wait_time: 600, batch_max_failure_resolution_attempts: 0 }),
        ],
      }),
    );
    h.queue(1);
    h.queue(2);
    h.created("Batch 1");
    h.at(30).ci("Batch 1", false);
    expect(h.lines(STORY)).toEqual([
      "log action.queue.checks_end #1 Batch 1 failure",
      "log action.queue.checks_end #2 Batch 1 failure",
      "cancel Batch 1 (max failure resolution attempts)",
      "log action.queue.leave #1 BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS",
      "log action.queue.leave #2 BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS",
    ]);
  });

  it("retries a failed check with a fresh draft while max_checks_retries allows", () => {
    const h = new QueueHarness(
      configuration({ rules: [queueRule({ max_checks_retries: 1 })], mergeQueue: { max_parallel_checks: 2 } }),
    );
    h.queue(1);
    h.created("Batch 1", 101);
    h.at(30).ci("Batch 1", false);
    expect(h.lines(STORY)).toEqual([
      "log action.queue.checks_end #1 Batch 1 aborted CHECKS_RETRIED",
      "cancel Batch 1 (CHECKS_RETRIED)",
      "create Batch 1 [1] ahead []",
    ]);
    const end = h.effects.find((e) => e.kind === "log" && e.type === "action.queue.checks_end");
    expect(end?.kind === "log" && end.metadata).toMatchObject({
      abort_status: "REEMBARKED",
      retry_attempt: 1,
      max_retries: 1,
      retries_before_run: 0,
    });
    const create = h.effects.find((e) => e.kind === "create_speculative_check");
    expect(create?.kind === "create_speculative_check" && create.draftBranch).toBe(
      "yardmaster/merge-queue/main/batch-1-retry-1",
    );
    h.created("Batch 1", 102);
    h.at(60).ci("Batch 1", false);
    expect(h.lines(STORY)).toEqual([
      "log action.queue.checks_end #1 Batch 1 failure",
      "cancel Batch 1 (culprit found)",
      "log action.queue.leave #1 CHECKS_FAILED",
    ]);
  });

  it("times out a check after checks_timeout (CHECKS_TIMEOUT)", () => {
    const h = new QueueHarness(
      configuration({ rules: [queueRule({ checks_timeout: 3600 })], mergeQueue: { max_parallel_checks: 2 } }),
    );
    h.queue(1);
    h.at(1).created("Batch 1", 101);
    expect(h.lines(STORY)).toEqual(["log action.queue.checks_start #1 Batch 1", "timer checks-timeout at +61m"]);
    h.at(61).send({ type: "timer_fired", key: Object.keys(h.state.timers)[0]! });
    expect(h.lines(STORY)).toEqual([
      "log action.queue.checks_end #1 Batch 1 timed_out",
      "cancel Batch 1 (culprit found)",
      "log action.queue.leave #1 CHECKS_TIMEOUT",
    ]);
    const end = h.effects.find((e) => e.kind === "log" && e.type === "action.queue.checks_end");
    expect(end?.kind === "log" && end.metadata.speculative_check_pull_request).toMatchObject({
      checks_timed_out: true,
      checks_conclusion: "timed_out",
    });
  });

  it("judges a failed batch only once the batches ahead passed, rechecking the ones behind it meanwhile", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 3 } }));
    for (const n of [1, 2, 3]) h.queue(n);
    h.created("Batch 1", 101);
    h.created("Batch 2", 102);
    h.created("Batch 3", 103);
    h.at(20).ci("Batch 2", false);
    expect(h.picture()).toEqual([
      TRAIN,
      "  Batch 1 [1] draft running",
      "  Batch 2 [2] draft failed on Batch 1",
      "  Batch 3 [3] draft creating on Batch 1",
    ]);
    h.at(30).ci("Batch 1", true);
    expect(h.lines(STORY)).toEqual([
      "log action.queue.checks_end #1 Batch 1 success",
      "cancel Batch 2 (culprit found)",
      "log action.queue.leave #2 CHECKS_FAILED",
      "merge Batch 1 [1] merge exact",
    ]);
  });

  it("builds a bisection's prefixes on the failed batch's own ancestors: a failure behind it restarts nothing", () => {
    const h = new QueueHarness(
      configuration({
        rules: [queueRule({ batch_size: batchOf(3), batch_max_wait_time: 600 })],
        mergeQueue: { max_parallel_checks: 2 },
      }),
    );
    for (const n of [1, 2, 3, 4, 5, 6]) h.queue(n);
    h.created("Batch 1", 101);
    h.created("Batch 2", 102);
    h.at(30).ci("Batch 1", false);
    h.created("Batch 2", 103);
    h.created("Sub-batch 1.1", 111);
    h.created("Sub-batch 1.2", 112);
    // Batch 2, rebuilt without Batch 1, is behind it: the prefixes are not checked on top of it.
    expect(h.picture().slice(1)).toEqual([
      "  Batch 2 [4,5,6] draft running",
      "  Sub-batch 1.1 [1] draft running",
      "  Sub-batch 1.2 [2] draft running on Sub-batch 1.1",
      "  bisecting Batch 1 [1,2,3] depth 0 held [3]",
    ]);
    // Batch 2 fails: the prefixes run on (before, they were rebuilt and the bisection restarted).
    h.at(45).ci("Batch 2", false);
    expect(h.lines(STORY).filter((l) => l.includes("Sub-batch 1."))).toEqual([]);
    h.at(60).ci("Sub-batch 1.1", true);
    h.at(61).ci("Sub-batch 1.2", false);
    const leaves = h.history
      .filter((e) => e.kind === "log" && e.type === "action.queue.leave")
      .map((e) => e.kind === "log" && `${e.pullRequest} ${e.metadata.dequeue_code}`);
    expect(leaves).toContain("2 CHECKS_FAILED");
    expect(leaves).not.toContain("3 DROPPED_BY_BISECTION_ELIMINATION");
  });

  it("lets a later passing batch vindicate a failed one with skip_intermediate_results", () => {
    const h = new QueueHarness(
      configuration({ mergeQueue: { max_parallel_checks: 3, skip_intermediate_results: true } }),
    );
    for (const n of [1, 2, 3]) h.queue(n);
    h.created("Batch 1", 101);
    h.created("Batch 2", 102);
    h.created("Batch 3", 103);
    h.at(20).ci("Batch 1", false);
    expect(h.picture()).toEqual([
      TRAIN,
      "  Batch 1 [1] draft failed",
      "  Batch 2 [2] draft running on Batch 1",
      "  Batch 3 [3] draft running on Batch 1+Batch 2",
    ]);
    h.at(30).ci("Batch 2", true);
    expect(h.lines(STORY)).toEqual([
      "log action.queue.checks_end #2 Batch 2 success",
      "merge Batch 2 [1,2] merge exact",
    ]);
    h.mergeRequested();
    expect(h.logs().filter((l) => l.includes("leave"))).toEqual([
      "log action.queue.leave #1 PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED",
      "log action.queue.leave #2 PR_MERGED",
    ]);
    expect(h.picture()).toEqual(["train main/__default__ base dd3315f", "  Batch 3 [3] draft running"]);
  });
});
