/**
 * The read views (docs/api.md "Merge queue status", "Queued pull request", "Queue listing",
 * branches, pause): shapes, positions, status codes, sub-batches while bisecting, the filling
 * batch and estimates from recent CI durations. Times are minutes after T0 here.
 */
import { describe, expect, it } from "vitest";
import {
  branchesWithQueue,
  pauseView,
  pullView,
  queueListing,
  statusView,
  type BatchView,
} from "../../services/engine/index.js";
import { batchOf, configuration, minutes, pauseEvent, QueueHarness, queueRule, unpauseEvent } from "./fixtures.js";

const at = (ms: number | null) => (ms === null ? null : (ms - minutes(0)) / 60_000);

/** A bisecting train: Batch 1 [1,2,3] failed at +30, Sub-batch 1.1 runs since +31, #4 preparing, #5 filling a batch. */
function bisectingTrain(): QueueHarness {
  const h = new QueueHarness(
    configuration({
      rules: [queueRule({ batch_size: batchOf(3), batch_max_wait_time: 600, checks_timeout: 3600 })],
      mergeQueue: { max_parallel_checks: 2 },
    }),
  );
  for (const n of [1, 2, 3, 4]) h.queue(n);
  h.created("Batch 1", 101);
  h.at(30).ci("Batch 1", false);
  h.at(31).created("Sub-batch 1.1", 111);
  h.at(32).queue(5);
  return h;
}

function brief(h: QueueHarness, b: BatchView): unknown {
  return {
    name: b.name,
    code: b.status.code,
    prs: b.pullRequests.map((p) => p.number),
    parents: b.parentIds.map((id) => h.nameOf(id)),
    ciAt: at(b.estimatedCiFinishAt),
    mergeAt: at(b.estimatedMergeAt),
    check: b.checkPullRequestNumber,
    timeoutAt: at(b.checksTimeoutAt),
    subs: b.subBatches.map((s) => brief(h, s)),
  };
}

describe("status view", () => {
  it("shows a bisecting batch with its sub-batches, the batches behind, and the filling batch", () => {
    const h = bisectingTrain();
    const status = statusView(h.state, "main", h.now);
    expect(status.batches.map((b) => brief(h, b))).toEqual([
      {
        name: "Batch 1",
        code: "bisecting",
        prs: [1, 2, 3],
        parents: [],
        ciAt: null,
        mergeAt: 62,
        check: 101,
        timeoutAt: null,
        subs: [
          // The typical CI duration is the one check concluded so far: 30 minutes.
          {
            name: "Sub-batch 1.1",
            code: "running",
            prs: [1],
            parents: [],
            ciAt: 61,
            mergeAt: 61,
            check: 111,
            timeoutAt: 91,
            subs: [],
          },
          {
            name: "Sub-batch 1.2",
            code: "preparing",
            prs: [2],
            parents: ["Sub-batch 1.1"],
            ciAt: 62,
            mergeAt: 62,
            check: null,
            timeoutAt: null,
            subs: [],
          },
        ],
      },
      {
        name: "Batch 2",
        code: "preparing",
        prs: [4],
        parents: [],
        ciAt: 62,
        mergeAt: 62,
        check: null,
        timeoutAt: null,
        subs: [],
      },
      {
        name: "Batch 3",
        code: "waiting_for_batch",
        prs: [5],
        parents: [],
        ciAt: null,
        mergeAt: null,
        check: null,
        timeoutAt: null,
        subs: [],
      },
    ]);
    // The bisecting batch shows the check that failed, never "0 of 0"; a sub-batch its own checks.
    const [bisecting] = status.batches;
    expect(bisecting!.checksSummary).toEqual({ passed: 0, total: 1 });
    expect(bisecting!.checks).toEqual([
      { name: "ci", description: "tests", url: null, state: "failure", avatar_url: null },
    ]);
    expect(bisecting!.subBatches.map((b) => [b.name, b.checks.length])).toEqual([
      ["Sub-batch 1.1", 0],
      ["Sub-batch 1.2", 0],
    ]);
    const filling = status.batches[2]!;
    expect([filling.batchFilledSlots, filling.maxBatchSlots, at(filling.batchMaxStartAt)]).toEqual([1, 3, 42]);
    expect(status.waitingPullRequests).toEqual([]);
    expect(status.mode).toBe("serial");
    expect(status.automaticConflictResolutionUnsupported).toBe(true);
    expect(Object.keys(status.scopeQueues)).toEqual(["__default__"]);
    expect(status.scopeQueues.__default__).toEqual(status.batches.map((b) => b.id));
    expect(status.batches[0]!.pullRequests[0]).toEqual({
      number: 1,
      title: "Change 1",
      url: "https://forge.example/acme/app/pull/1",
      author: { id: 7, login: "ada" },
      queuedAt: minutes(0),
      priorityAlias: "medium",
      priorityRuleName: null,
      labels: [],
      hostLabels: [],
      scopes: [],
      allScopes: false,
      protectionsHold: null,
    });
  });

  it("estimates a batch whose batch ahead has already merged (the merged ancestor holds nothing back)", () => {
    const h = new QueueHarness(
      configuration({
        rules: [queueRule({ batch_size: batchOf(1), batch_max_wait_time: 0 })],
        mergeQueue: { max_parallel_checks: 2 },
      }),
    ).firstOfTwoMerged();
    const [batch2] = statusView(h.state, "main", h.now).batches;
    // Typical CI: the one concluded check, 20 minutes; Batch 2 started at 0 so it ends at 20 (now).
    expect([batch2!.name, at(batch2!.estimatedCiFinishAt), at(batch2!.estimatedMergeAt)]).toEqual(["Batch 2", 20, 20]);
  });

  it("gives no estimate for a check running longer than the typical CI, nor for what waits behind it", () => {
    const h = new QueueHarness(
      configuration({
        rules: [queueRule({ batch_size: batchOf(1), batch_max_wait_time: 0 })],
        mergeQueue: { max_parallel_checks: 2 },
      }),
    ).firstOfTwoMerged();
    h.queue(3);
    const view = () => {
      const s = statusView(h.state, "main", h.now);
      return [...s.batches, ...s.waitingPullRequests].map((b) =>
        "status" in b
          ? [b.name, at(b.estimatedCiFinishAt), at(b.estimatedMergeAt)]
          : [b.number, at(b.estimatedMergeAt)],
      );
    };
    // Typical CI 20 minutes: Batch 2 (started at 0) is due at 20; Batch 3, on top of it, 20 later.
    expect(view()).toEqual([
      ["Batch 2", 20, 20],
      ["Batch 3", 40, 40],
    ]);
    h.at(21);
    // Batch 3's own CI still has an estimate (not started: now + typical), not its merge.
    expect(view()).toEqual([
      ["Batch 2", null, null],
      ["Batch 3", 41, null],
    ]);
  });

  it("gives no merge estimate while the queue is paused, and estimates again once unpaused", () => {
    const h = new QueueHarness(
      configuration({
        rules: [queueRule({ batch_size: batchOf(1), batch_max_wait_time: 0 })],
        mergeQueue: { max_parallel_checks: 2 },
      }),
    ).firstOfTwoMerged();
    h.queue(3);
    h.send(pauseEvent("deploy"));
    const s = statusView(h.state, "main", h.now);
    const estimates = [
      ...s.batches.map((b) => b.estimatedMergeAt),
      ...s.waitingPullRequests.map((p) => p.estimatedMergeAt),
    ];
    expect(estimates.length).toBeGreaterThan(0);
    expect(estimates).toEqual(estimates.map(() => null));
    expect(pullView(h.state, 3, h.now)?.estimatedTimeOfMerge).toBeNull();
    h.send(unpauseEvent());
    const after = statusView(h.state, "main", h.now);
    expect([...after.batches, ...after.waitingPullRequests].every((b) => b.estimatedMergeAt !== null)).toBe(true);
  });

  it("shows the hosting platform's labels given at queue time, refreshed when the conditions are evaluated again", () => {
    const h = new QueueHarness(
      configuration({ rules: [queueRule({ batch_size: batchOf(2), batch_max_wait_time: 600 })] }),
    );
    h.queue(1, { labels: ["ready"], hostLabels: [{ id: 11, name: "ready", color: "0e8a16", default: false }] });
    const shown = () => statusView(h.state, "main", h.now).batches[0]!.pullRequests[0]!;
    expect([shown().labels, shown().hostLabels]).toEqual([
      ["ready"],
      [{ id: 11, name: "ready", color: "0e8a16", default: false }],
    ]);
    h.send({
      type: "queue_conditions_evaluated",
      number: 1,
      result: true,
      labels: ["ready", "urgent"],
      hostLabels: [
        { id: 11, name: "ready", color: "0e8a16", default: false },
        { id: 12, name: "urgent", color: "b60205", default: false },
      ],
    });
    expect(shown().labels).toEqual(["ready", "urgent"]);
    expect(shown().hostLabels.map((l) => l.color)).toEqual(["0e8a16", "b60205"]);
  });

  it("lists waiting pull requests in queue order, and nothing for another branch", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 1 } }));
    h.send(pauseEvent());
    h.queue(1);
    h.queue(2, { priority: 3000 });
    const status = statusView(h.state, undefined, h.now);
    expect(status.waitingPullRequests.map((p) => [p.number, p.priorityAlias])).toEqual([
      [2, "high"],
      [1, "medium"],
    ]);
    expect(status.pause).toEqual({ reason: "release freeze", pausedAt: minutes(0) });
    expect(statusView(h.state, "release", h.now).waitingPullRequests).toEqual([]);
  });
});

describe("pull request view", () => {
  it("gives the 0-based position (batch members, held candidates, then waiting), the check and its state", () => {
    const h = bisectingTrain();
    const views = [1, 2, 3, 4, 5].map((n) => pullView(h.state, n, h.now)!);
    expect(views.map((v) => v.position)).toEqual([0, 1, 2, 3, 4]);
    expect(
      views.map(
        (v) =>
          v.mergeabilityCheck && [
            v.mergeabilityCheck.checkType,
            v.mergeabilityCheck.queuePullRequestNumber,
            v.mergeabilityCheck.state,
            v.mergeabilityCheck.ciState,
          ],
      ),
    ).toEqual([
      ["draft_pr", 111, "running", "pending"],
      ["draft_pr", null, "preparing", "pending"],
      null,
      ["draft_pr", null, "preparing", "pending"],
      null,
    ]);
    expect(at(views[0]!.checksTimeoutAt)).toBe(91);
    expect(views[0]!.queueRule?.name).toBe("default");
    expect(pullView(h.state, 99, h.now)).toBeNull();
  });

  it("says ci_state failure, a state Mergify's CLI renders, while a failed batch waits on the one ahead", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 2 } }));
    for (const n of [1, 2]) h.queue(n);
    h.created("Batch 1", 101);
    h.created("Batch 2", 102);
    h.at(30).ci("Batch 2", false);
    expect(pullView(h.state, 2, h.now)?.mergeabilityCheck?.ciState).toBe("failure");
    expect(pullView(h.state, 1, h.now)?.mergeabilityCheck?.ciState).toBe("pending");
  });

  it("says when checks run in place", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 1 } }));
    h.queue(1);
    h.created("Batch 1");
    const view = pullView(h.state, 1, h.now)!;
    expect([view.inPlace, view.mergeabilityCheck?.checkType, view.mergeabilityCheck?.queuePullRequestNumber]).toEqual([
      true,
      "in_place",
      1,
    ]);
  });
});

describe("listing, branches and pause", () => {
  it("lists queued pull requests per branch in queue order, with their partition", () => {
    const h = bisectingTrain();
    h.queue(6, { baseRef: "release" });
    const listing = queueListing(h.state, h.now);
    expect(
      listing.queues.map((q) => [
        q.branch.name,
        q.pullRequests.map((p) => [p.number, p.position, p.partitionName, p.mergeabilityCheck?.state ?? null]),
      ]),
    ).toEqual([
      [
        "main",
        [
          [1, 0, "__default__", "running"],
          [2, 1, "__default__", "preparing"],
          [3, 2, "__default__", null],
          [4, 3, "__default__", "preparing"],
          [5, 4, "__default__", null],
        ],
      ],
      ["release", [[6, 0, "__default__", null]]],
    ]);
    expect(listing.queues[0]!.pullRequests[0]).toMatchObject({
      priority: 2000,
      effectivePriority: 2000,
      priorityAlias: "medium",
      queueRuleName: "default",
    });
    expect(branchesWithQueue(h.state)).toEqual(["main", "release"]);
  });

  it("reports the pause state", () => {
    const h = new QueueHarness();
    expect(pauseView(h.state)).toEqual({ paused: false, reason: null, pausedAt: null });
    h.at(5).send(pauseEvent("deploy"));
    expect(pauseView(h.state)).toEqual({ paused: true, reason: "deploy", pausedAt: minutes(5) });
  });
});
