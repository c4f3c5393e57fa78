/**
 * What the platform's refusal of a merge does to the queue (docs/merge-queue.md "Merge refusals";
 * docs/github.md "Landing a batch"): a pull request whose head moved leaves with PULL_REQUEST_UPDATED, not
 * its batch's first one; a refusal by branch protection makes the pull request it names (or the
 * whole batch) leave with INCOMPATIBILITY_WITH_BRANCH_PROTECTIONS and the platform's message; a
 * check that is no longer on the base's tip (strict checks) is checked again, nobody leaves; a
 * landing the platform would refuse is found before CI runs.
 */
import { describe, expect, it } from "vitest";
import { configuration, QueueHarness, STORY } from "./fixtures.js";

/** Two pull requests in one batch whose check passed, its merge requested. */
function passedBatchOfTwo(): QueueHarness {
  const h = new QueueHarness(
    configuration({
      rules: [{ ...configuration().queue_rules[0]!, batch_size: { min: 2, max: 2 }, batch_max_wait_time: 600 }],
    }),
  );
  h.queue(1);
  h.queue(2);
  h.created("Batch 1");
  h.at(30).ci("Batch 1", true);
  return h;
}

const refusal = (h: QueueHarness, reason: string, pullRequest: number | null, message: string) =>
  h.send({
    type: "merge_failed",
    batchId: h.batch("Batch 1").batch.id,
    reason: reason as "protection",
    pullRequest,
    currentBaseSha: null,
    message,
  });

describe("a refused merge", () => {
  it("a head that moved sends that pull request back (PULL_REQUEST_UPDATED), not the batch's first", () => {
    const h = passedBatchOfTwo();
    refusal(h, "head_moved", 2, "GitHub refused to merge pull request #2: Head branch was modified.");
    expect(h.lines(STORY)).toEqual([
      "cancel Batch 1 (PR_AHEAD_DEQUEUED)",
      "log action.queue.leave #2 PULL_REQUEST_UPDATED",
      "create Batch 2 [1] ahead []",
    ]);
  });

  it("branch protection refusing one pull request sends it back with the platform's message", () => {
    const h = passedBatchOfTwo();
    const message =
      "GitHub refused to merge pull request #1: At least 1 approving review is required by reviewers with write access.";
    refusal(h, "protection", 1, message);
    expect(h.lines(STORY)).toEqual([
      "cancel Batch 1 (INCOMPATIBILITY_WITH_BRANCH_PROTECTIONS)",
      "log action.queue.leave #1 INCOMPATIBILITY_WITH_BRANCH_PROTECTIONS",
      "create Batch 2 [2] ahead []",
    ]);
    const leave = h.effects.find((e) => e.kind === "log" && e.type === "action.queue.leave");
    expect(leave).toMatchObject({
      metadata: { reason: expect.stringContaining("At least 1 approving review is required") },
    });
  });

  it("branch protection refusing the batch's landing sends every pull request of it back", () => {
    const h = passedBatchOfTwo();
    refusal(
      h,
      "protection",
      null,
      "GitHub would refuse to land the batch on main: the branch requires GitHub's merge queue",
    );
    expect(h.lines(["log"]).filter((l) => l.includes("leave"))).toEqual([
      "log action.queue.leave #1 INCOMPATIBILITY_WITH_BRANCH_PROTECTIONS",
      "log action.queue.leave #2 INCOMPATIBILITY_WITH_BRANCH_PROTECTIONS",
    ]);
  });

  it("a check no longer on the base's tip is checked again, and nobody leaves", () => {
    const h = passedBatchOfTwo();
    refusal(h, "stale_check", null, "main requires branches to be up to date before merging");
    expect(h.lines(STORY)).toEqual(["cancel Batch 1 (MERGE_QUEUE_RESET)", "create Batch 1 [1,2] ahead []"]);
    expect(h.logs().filter((l) => l.includes("leave"))).toEqual([]);
  });
});

describe("a landing the platform would refuse, found when the check is created", () => {
  it("sends the batch's pull requests back before CI runs", () => {
    const h = new QueueHarness(
      configuration({
        rules: [{ ...configuration().queue_rules[0]!, batch_size: { min: 2, max: 2 }, batch_max_wait_time: 600 }],
      }),
    );
    h.queue(1);
    h.queue(2);
    const check = h.batch("Batch 1").batch.check!;
    h.send({
      type: "speculative_check_failed",
      checkId: check.id,
      reason: "protection",
      pullRequest: null,
      message: "GitHub would refuse to land the batch on main: merge_method fast-forward moves the branch directly",
    });
    expect(h.logs().filter((l) => l.includes("leave"))).toEqual([
      "log action.queue.leave #1 INCOMPATIBILITY_WITH_BRANCH_PROTECTIONS",
      "log action.queue.leave #2 INCOMPATIBILITY_WITH_BRANCH_PROTECTIONS",
    ]);
  });
});
