/**
 * Scenario tests of branch changes the queue did not make (docs/domain.md §1.3, §3.9): a
 * deleted base branch (BASE_BRANCH_MISSING), a pull request moved to another base
 * (BASE_BRANCH_CHANGED) and commits pushed to a batch's draft pull request
 * (DRAFT_PULL_REQUEST_CHANGED / BATCH_AHEAD_BRANCH_EDITED, `allow_queue_branch_edit`).
 */
import { describe, expect, it } from "vitest";
import { configuration, QueueHarness, queueRule, sha, STORY } from "./fixtures.js";

const twoChecks = configuration({ mergeQueue: { max_parallel_checks: 2 } });
const editable = configuration({
  mergeQueue: { max_parallel_checks: 2 },
  rules: [queueRule({ allow_queue_branch_edit: true, merge_method: "merge-batch" })],
});
/** #1 and #2 queued, each checked in its own batch (Batch 2 on top of Batch 1), both running. */
function twoRunning(): QueueHarness {
  const h = new QueueHarness(twoChecks);
  h.queue(1);
  h.queue(2);
  h.created("Batch 1", 101);
  h.created("Batch 2", 102);
  return h;
}
const edit = (h: QueueHarness, batch: string, label: string) =>
  h.send({ type: "speculative_check_edited", checkId: h.batch(batch).batch.check!.id, headSha: sha(label) });

describe("a deleted base branch", () => {
  it("dequeues every pull request of the branch with BASE_BRANCH_MISSING and stops their checks", () => {
    const h = new QueueHarness(twoChecks);
    h.queue(1);
    h.queue(2);
    h.queue(3);
    h.created("Batch 1", 101);
    h.created("Batch 2", 102);
    h.at(5).send({ type: "base_branch_deleted", branch: "main" });
    expect(h.lines(STORY)).toEqual([
      "log action.queue.checks_end #1 Batch 1 aborted BASE_BRANCH_MISSING",
      "cancel Batch 1 (BASE_BRANCH_MISSING)",
      "log action.queue.checks_end #2 Batch 2 aborted BASE_BRANCH_MISSING",
      "cancel Batch 2 (BASE_BRANCH_MISSING)",
      "log action.queue.leave #1 BASE_BRANCH_MISSING",
      "log action.queue.leave #2 BASE_BRANCH_MISSING",
      "log action.queue.leave #3 BASE_BRANCH_MISSING",
    ]);
    const leave = h.effects.find((e) => e.kind === "log" && e.type === "action.queue.leave");
    expect(leave?.kind === "log" && leave.metadata.reason).toBe("The base branch main was deleted");
    expect(h.state.pulls).toEqual({});
    expect(h.state.bases).toEqual({});
  });

  it("leaves other branches alone, and ignores a branch without a queue", () => {
    const h = new QueueHarness(twoChecks);
    h.queue(1);
    h.queue(2, { baseRef: "release" });
    h.send({ type: "base_branch_deleted", branch: "feature/x" });
    expect(h.effects).toEqual([]);
    h.send({ type: "base_branch_deleted", branch: "release" });
    expect(h.logs().filter((l) => l.includes("leave"))).toEqual(["log action.queue.leave #2 BASE_BRANCH_MISSING"]);
    expect(Object.keys(h.state.pulls)).toEqual(["1"]);
  });

  it("lets a merge in flight decide, then dequeues what did not merge", () => {
    const h = twoRunning();
    h.ci("Batch 1", true);
    expect(h.lines(["merge_batch"])).toEqual(["merge Batch 1 [1] merge exact"]);
    h.send({ type: "base_branch_deleted", branch: "main" });
    expect(h.logs().filter((l) => l.includes("leave"))).toEqual(["log action.queue.leave #2 BASE_BRANCH_MISSING"]);
    h.send({
      type: "merge_failed",
      batchId: h.batch("Batch 1").batch.id,
      reason: "error",
      pullRequest: 1,
      currentBaseSha: null,
      message: "branch not found",
    });
    expect(h.logs().filter((l) => l.includes("leave"))).toEqual(["log action.queue.leave #1 BASE_BRANCH_MISSING"]);
    expect(h.state.pulls).toEqual({});
  });

  it("a pull request entering after the branch was pushed anew stays, and checks start on the new branch", () => {
    const h = new QueueHarness(twoChecks);
    h.queue(1);
    h.created("Batch 1", 101);
    h.ci("Batch 1", true);
    h.send({ type: "base_branch_deleted", branch: "main" });
    h.queue(2, { baseSha: sha("recreated") });
    h.send({
      type: "merge_failed",
      batchId: h.batch("Batch 1").batch.id,
      reason: "base_moved",
      pullRequest: null,
      currentBaseSha: null,
      message: "the base moved",
    });
    expect(Object.keys(h.state.pulls)).toEqual(["1", "2"]);
    expect(h.lines(["create_speculative_check"])).toEqual([
      "create Batch 3 [1] ahead []",
      "create Batch 4 [2] ahead [1]",
    ]);
    const create = h.effects.find((e) => e.kind === "create_speculative_check");
    expect(create?.kind === "create_speculative_check" && create.baseSha).toBe(sha("recreated"));
  });
});

describe("a pull request moved to another base branch", () => {
  it("leaves with BASE_BRANCH_CHANGED; the batches checked on top of it are checked again without it", () => {
    const h = twoRunning();
    h.send({ type: "pull_request_base_changed", number: 1, baseRef: "release" });
    expect(h.lines(STORY)).toEqual([
      "log action.queue.checks_end #1 Batch 1 aborted BASE_BRANCH_CHANGED",
      "cancel Batch 1 (BASE_BRANCH_CHANGED)",
      "log action.queue.checks_end #2 Batch 2 aborted PR_AHEAD_DEQUEUED",
      "cancel Batch 2 (PR_AHEAD_DEQUEUED)",
      "log action.queue.leave #1 BASE_BRANCH_CHANGED",
      "create Batch 3 [2] ahead []",
    ]);
    const leave = h.effects.find((e) => e.kind === "log" && e.type === "action.queue.leave");
    expect(leave?.kind === "log" && leave.metadata.reason).toBe(
      "The base branch of the pull request changed from main to release",
    );
  });

  it("changes nothing when the base is the one it is queued for", () => {
    const h = new QueueHarness(twoChecks);
    h.queue(1);
    h.send({ type: "pull_request_base_changed", number: 1, baseRef: "main" });
    h.send({ type: "pull_request_base_changed", number: 7, baseRef: "release" });
    expect(h.effects).toEqual([]);
    expect(Object.keys(h.state.pulls)).toEqual(["1"]);
  });
});

describe("commits pushed to a draft pull request by someone else", () => {
  it("dequeue the batch with DRAFT_PULL_REQUEST_CHANGED; the batches on top wait again (BATCH_AHEAD_BRANCH_EDITED)", () => {
    const h = twoRunning();
    edit(h, "Batch 1", "foreign commit");
    expect(h.lines(STORY)).toEqual([
      "log action.queue.checks_end #1 Batch 1 aborted DRAFT_PULL_REQUEST_CHANGED",
      "cancel Batch 1 (DRAFT_PULL_REQUEST_CHANGED)",
      "log action.queue.checks_end #2 Batch 2 aborted BATCH_AHEAD_BRANCH_EDITED",
      "cancel Batch 2 (BATCH_AHEAD_BRANCH_EDITED)",
      "log action.queue.leave #1 DRAFT_PULL_REQUEST_CHANGED",
      "create Batch 3 [2] ahead []",
    ]);
  });

  it("the queue's own head (the creation reported again) changes nothing", () => {
    const h = new QueueHarness(twoChecks);
    h.queue(1);
    h.created("Batch 1", 101);
    const { check } = h.batch("Batch 1").batch;
    h.send({ type: "speculative_check_edited", checkId: check!.id, headSha: check!.headSha! });
    expect(h.effects).toEqual([]);
  });

  it("with allow_queue_branch_edit but a merge method that merges the heads, not the draft, the batch still leaves", () => {
    const h = new QueueHarness(
      configuration({
        mergeQueue: { max_parallel_checks: 2 },
        rules: [queueRule({ allow_queue_branch_edit: true, merge_method: "fast-forward" })],
      }),
    );
    h.queue(1);
    h.created("Batch 1", 101);
    edit(h, "Batch 1", "foreign commit");
    expect(h.logs()).toContain("log action.queue.leave #1 DRAFT_PULL_REQUEST_CHANGED");
  });

  it("with allow_queue_branch_edit the check goes on at the new head and nothing starts on top of it until it merged", () => {
    const h = new QueueHarness(editable);
    h.queue(1);
    h.queue(2);
    h.created("Batch 1", 101);
    h.created("Batch 2", 102);
    h.at(10).ci("Batch 1", true);
    expect(h.lines(["merge_batch"])).toEqual(["merge Batch 1 [1] merge-batch exact"]);
    h.merged("Batch 1");
    h.queue(3);
    h.created("Batch 3", 103);
    h.at(12);
    edit(h, "Batch 2", "fixup pushed by a maintainer");
    expect(h.lines(STORY)).toEqual([
      "log action.queue.checks_end #3 Batch 3 aborted BATCH_AHEAD_BRANCH_EDITED",
      "cancel Batch 3 (BATCH_AHEAD_BRANCH_EDITED)",
    ]);
    const { batch } = h.batch("Batch 2");
    expect({ head: batch.check!.headSha, phase: batch.check!.phase, startedAt: batch.check!.startedAt }).toEqual({
      head: sha("fixup pushed by a maintainer"),
      phase: "running",
      startedAt: h.now,
    });
    expect(h.picture()).toContain("  Batch 4 [3] no check on Batch 2");
    h.at(40).ci("Batch 2", true);
    const merge = h.effects.find((e) => e.kind === "merge_batch");
    expect(merge?.kind === "merge_batch" && merge.checkSha).toBe(sha("fixup pushed by a maintainer"));
    expect(h.lines(["create_speculative_check"])).toEqual([]);
    h.merged("Batch 2");
    expect(h.lines(["create_speculative_check", "action.queue.leave"])).toEqual([
      "log action.queue.leave #2 PR_MERGED",
      "create Batch 4 [3] ahead []",
    ]);
  });
});
