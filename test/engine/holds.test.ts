/**
 * What the runner tells the engine from outside the queue's own rules (services/engine/holds.ts):
 * merge protections holding a pull request (docs/merge-protections.md "The queue"), scopes sent
 * by CI (docs/merge-queue.md "Scopes from CI") and the merge_queue product switched off.
 */
import { describe, expect, it } from "vitest";
import { statusView } from "../../services/engine/index.js";
import { configuration, QueueHarness, queueRule } from "./fixtures.js";

const checksEnd = (h: QueueHarness) =>
  h.effects.flatMap((e) =>
    e.kind === "log" && e.type === "action.queue.checks_end"
      ? [`#${e.pullRequest} ${e.metadata.abort_code}: ${e.metadata.abort_reason}`]
      : [],
  );

describe("merge protections holding a queued pull request", () => {
  it("keep it waiting while held, show why in the status, and let it embark once released", () => {
    const h = new QueueHarness(configuration({ rules: [queueRule()] }));
    h.queue(1, { protectionsHold: "Waiting for 1 merge protection: Depends-On" });
    expect(h.picture()).toEqual(["train main/__default__ base 074a83b", "  waiting [1]"]);
    const status = statusView(h.state, "main", h.now);
    expect(status.waitingPullRequests.map((p) => [p.number, p.protectionsHold])).toEqual([
      [1, "Waiting for 1 merge protection: Depends-On"],
    ]);
    h.at(5).send({ type: "merge_protections_evaluated", number: 1, hold: null });
    expect(h.picture()).toEqual(["train main/__default__ base 074a83b", "  Batch 1 [1] draft creating"]);
    expect(statusView(h.state, "main", h.now).batches[0]!.pullRequests[0]!.protectionsHold).toBeNull();
  });

  it("stop the batch holding it and those on top of it, re-embarking the others without it", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 2 }, rules: [queueRule()] }));
    h.queue(1);
    h.queue(2);
    h.created("Batch 1", 101);
    h.created("Batch 2", 102);
    h.at(3).send({ type: "merge_protections_evaluated", number: 1, hold: "1 merge protection fails: Auth review" });
    expect(checksEnd(h)).toEqual([
      "#1 SCHEDULED_FREEZE_STATUS_CHANGED: Merge protections hold #1: 1 merge protection fails: Auth review",
      "#2 SCHEDULED_FREEZE_STATUS_CHANGED: Merge protections hold #1: 1 merge protection fails: Auth review",
    ]);
    expect(h.picture().slice(1)).toEqual(["  Batch 3 [2] draft creating", "  waiting [1]"]);
    expect(h.history.some((e) => e.kind === "log" && e.type === "action.queue.leave")).toBe(false);
    // Held again with another reason: nothing more to stop.
    h.at(4).send({ type: "merge_protections_evaluated", number: 1, hold: "Waiting for 1 merge protection" });
    expect(checksEnd(h)).toEqual([]);
  });

  it("never stop a batch whose merge is in flight", () => {
    const h = new QueueHarness(configuration({ rules: [queueRule()] }));
    h.queue(1);
    h.created("Batch 1");
    h.at(10).ci("Batch 1", true);
    expect(h.batch("Batch 1").batch.merging).toBe(true);
    h.send({ type: "merge_protections_evaluated", number: 1, hold: "1 merge protection fails" });
    expect(h.batch("Batch 1").batch.merging).toBe(true);
    expect(checksEnd(h)).toEqual([]);
  });
});

describe("scopes changed by CI", () => {
  it("move a waiting pull request to its new lane, and stop a batch holding it (BATCH_SCOPES_CHANGED)", () => {
    const h = new QueueHarness(
      configuration({ mergeQueue: { max_parallel_checks: 2, mode: "parallel" }, rules: [queueRule()], capacities: {} }),
    );
    h.queue(1, { scopes: ["api"] });
    h.created("Batch 1", 101);
    h.at(2).send({ type: "pull_request_scopes_changed", number: 1, scopes: ["web", "api"], allScopes: false });
    expect(checksEnd(h)).toEqual(["#1 BATCH_SCOPES_CHANGED: The scopes of #1 changed"]);
    const status = statusView(h.state, "main", h.now);
    expect(status.batches.map((b) => b.scopes)).toEqual([["api", "web"]]);
    h.send({ type: "pull_request_scopes_changed", number: 1, scopes: ["api", "web"], allScopes: false });
    expect(checksEnd(h)).toEqual([]);
    h.send({ type: "pull_request_scopes_changed", number: 1, scopes: [], allScopes: true });
    expect(statusView(h.state, "main", h.now).batches[0]!.pullRequests[0]!.allScopes).toBe(true);
  });
});

describe("the merge_queue product switched off", () => {
  it("makes every queued pull request leave with PR_DEQUEUED, but a batch being merged", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 2 }, rules: [queueRule()] }));
    h.queue(1);
    h.queue(2);
    h.queue(3);
    h.created("Batch 1", 101);
    h.at(10).ci("Batch 1", true);
    h.send({ type: "merge_queue_disabled", trigger: "Product: merge_queue disabled" });
    const leaves = h.effects.flatMap((e) =>
      e.kind === "log" && e.type === "action.queue.leave" ? [[e.pullRequest, e.metadata.dequeue_code, e.trigger]] : [],
    );
    expect(leaves).toEqual([
      [2, "PR_DEQUEUED", "Product: merge_queue disabled"],
      [3, "PR_DEQUEUED", "Product: merge_queue disabled"],
    ]);
    expect(Object.keys(h.state.pulls)).toEqual(["1"]);
  });
});
