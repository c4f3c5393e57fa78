/**
 * Scenario tests of batch formation, speculative checks and merging (docs/domain.md §3.3-3.6):
 * each asserts the whole train (batches, checks, waiting list) and the effects that tell the story.
 */
import { describe, expect, it } from "vitest";
import { batchOf, configuration, pauseEvent, QueueHarness, queueRule, STORY, unpauseEvent } from "./fixtures.js";

describe("batching and speculation", () => {
  it("fills a batch up to batch_size, then checks it on a draft at once", () => {
    const h = new QueueHarness(
      configuration({
        rules: [queueRule({ batch_size: batchOf(3), batch_max_wait_time: 600 })],
        mergeQueue: { max_parallel_checks: 2 },
      }),
    );
    h.at(0).queue(1);
    expect(h.lines(STORY)).toEqual(["timer batch-wait at +10m"]);
    expect(h.picture()).toEqual(["train main/__default__ base 074a83b", "  filling [1] of 3 until +10m"]);
    h.at(2).queue(2);
    h.at(3).queue(3);
    expect(h.lines(STORY)).toEqual(["create Batch 1 [1,2,3] ahead []", "cancel timer batch-wait"]);
    expect(h.picture()).toEqual(["train main/__default__ base 074a83b", "  Batch 1 [1,2,3] draft creating"]);
  });

  it("starts a partial batch when batch_max_wait_time expires, on top of the batch ahead", () => {
    const h = new QueueHarness(
      configuration({
        rules: [queueRule({ batch_size: batchOf(3), batch_max_wait_time: 600 })],
        mergeQueue: { max_parallel_checks: 2 },
      }),
    );
    for (const n of [1, 2, 3]) h.queue(n);
    h.at(4).queue(4);
    expect(h.lines(STORY)).toEqual(["timer batch-wait at +14m"]);
    h.at(14).send({ type: "timer_fired", key: "batch-wait/main/__default__" });
    expect(h.lines(STORY)).toEqual(["create Batch 2 [4] ahead [1,2,3]"]);
    expect(h.picture()).toEqual([
      "train main/__default__ base 074a83b",
      "  Batch 1 [1,2,3] draft creating",
      "  Batch 2 [4] draft creating on Batch 1",
    ]);
  });

  it("spreads a backlog over the free slots with a {min, max} batch size", () => {
    const h = new QueueHarness(
      configuration({
        rules: [queueRule({ batch_size: { min: 1, max: 3 }, batch_max_wait_time: 600 })],
        mergeQueue: { max_parallel_checks: 2 },
      }),
    );
    h.send(pauseEvent());
    for (const n of [1, 2, 3, 4, 5]) h.queue(n);
    h.send(unpauseEvent());
    // 5 waiting over 2 free slots: ceil(5/2) = 3, then 2 over 1 slot.
    expect(h.lines(STORY)).toEqual(["create Batch 1 [1,2,3] ahead []", "create Batch 2 [4,5] ahead [1,2,3]"]);
  });

  it("checks up to max_parallel_checks batches at once, each on top of the batches ahead", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 3 } }));
    for (const n of [1, 2, 3, 4]) h.queue(n);
    expect(h.picture()).toEqual([
      "train main/__default__ base 074a83b",
      "  Batch 1 [1] draft creating",
      "  Batch 2 [2] draft creating on Batch 1",
      "  Batch 3 [3] draft creating on Batch 1+Batch 2",
      "  waiting [4]",
    ]);
    const creates = h.history.filter((e) => e.kind === "create_speculative_check");
    expect(creates.map((e) => e.kind === "create_speculative_check" && e.pulls.map((p) => p.number))).toEqual([
      [1],
      [1, 2],
      [1, 2, 3],
    ]);
    expect(
      creates.every(
        (e) => e.kind === "create_speculative_check" && e.draftBranch.startsWith("yardmaster/merge-queue/main/batch-"),
      ),
    ).toBe(true);
  });

  it("merges the head batch when it passes, then the next, whose check already included it", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 2 } }));
    h.queue(1);
    h.queue(2);
    h.created("Batch 1", 101);
    h.created("Batch 2", 102);
    h.at(25).ci("Batch 2", true);
    expect(h.lines(STORY)).toEqual(["log action.queue.checks_end #2 Batch 2 success"]);
    expect(h.picture()).toContain("  Batch 2 [2] draft passed on Batch 1");
    h.at(30).ci("Batch 1", true);
    expect(h.lines(STORY)).toEqual(["log action.queue.checks_end #1 Batch 1 success", "merge Batch 1 [1] merge exact"]);
    h.merged("Batch 1");
    expect(h.lines(STORY)).toEqual([
      "close #101",
      "log action.queue.merged #1",
      "log action.queue.leave #1 PR_MERGED",
      "merge Batch 2 [2] merge exact",
    ]);
    h.merged("Batch 2");
    expect(h.lines(STORY)).toEqual(["close #102", "log action.queue.merged #2", "log action.queue.leave #2 PR_MERGED"]);
    expect(h.picture()).toEqual([]);
    expect(h.state.pulls).toEqual({});
  });

  it("with fast-forward, builds a batch on the check commit of the batch ahead", () => {
    const h = new QueueHarness(
      configuration({ rules: [queueRule({ merge_method: "fast-forward" })], mergeQueue: { max_parallel_checks: 2 } }),
    );
    h.queue(1);
    h.queue(2);
    expect(h.picture()).toEqual([
      "train main/__default__ base 074a83b",
      "  Batch 1 [1] draft creating",
      "  Batch 2 [2] no check on Batch 1",
    ]);
    h.created("Batch 1", 101);
    const create = h.effects.find((e) => e.kind === "create_speculative_check");
    expect(
      create?.kind === "create_speculative_check" && { base: create.baseSha, pulls: create.pulls.map((p) => p.number) },
    ).toEqual({ base: h.batch("Batch 1").batch.check!.headSha, pulls: [2] });
  });

  it("checks in place when there is no speculation, no batching and single-step CI", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 1 } }));
    h.queue(1);
    h.queue(2);
    expect(h.history.filter((e) => e.kind === "start_in_place_check").length).toBe(1);
    expect(h.picture()).toEqual([
      "train main/__default__ base 074a83b",
      "  Batch 1 [1] in place creating",
      "  waiting [2]",
    ]);
    h.at(1).created("Batch 1");
    h.at(30).ci("Batch 1", true);
    expect(h.lines(STORY)).toEqual(["log action.queue.checks_end #1 Batch 1 success", "merge Batch 1 [1] merge exact"]);
    h.merged("Batch 1");
    expect(h.lines(STORY)).toEqual([
      "log action.queue.merged #1",
      "log action.queue.leave #1 PR_MERGED",
      "in place Batch 2 #2 (merge)",
    ]);
  });

  it("uses a draft instead of in place when merge conditions differ from queue conditions", () => {
    const leaf = {
      kind: "leaf" as const,
      text: "check-success=ci",
      attribute: "check-success",
      negate: false,
      length: false,
      operator: "=" as const,
      value: { type: "string" as const, value: "ci" },
    };
    const h = new QueueHarness(
      configuration({ rules: [queueRule({ merge_conditions: [leaf] })], mergeQueue: { max_parallel_checks: 1 } }),
    );
    h.queue(1);
    expect(h.lines(STORY)).toEqual(["create Batch 1 [1] ahead []"]);
  });
});
