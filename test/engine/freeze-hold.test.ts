/**
 * A scheduled freeze in the engine (docs/scheduled-freeze.md; docs/domain.md §3.7): the runner
 * reports members an active freeze holds as check_results with `holdKind: "freeze"`; the batch is
 * `frozen`, not merged, keeps its check, and its leave counts the wait in
 * seconds_waiting_for_freeze. A batch that already passed is held too (a freeze that began while
 * it waited for the batches ahead), and a frozen batch that holds up others gives way with
 * SCHEDULED_FREEZE_STATUS_CHANGED.
 */
import { describe, expect, it } from "vitest";
import { statusView } from "../../services/engine/index.js";
import { configuration, minutes, QueueHarness, queueRule } from "./fixtures.js";

const ci = [{ name: "ci", description: "tests", url: null, state: "success" as const, avatar_url: null }];
const FROZEN = "SCHEDULED_FREEZE_STATUS_CHANGED";

const codes = (h: QueueHarness) => statusView(h.state, "main", h.now).batches.map((b) => b.status.code);
const freeze = (h: QueueHarness, name: string, until: number, blocked?: number[], openEnded = false) =>
  h.send({
    type: "check_results",
    checkId: h.batch(name).batch.check!.id,
    conditions: false,
    checks: ci,
    scheduleOpensAt: minutes(until),
    holdKind: "freeze",
    scheduleBlocked: blocked ? Object.fromEntries(blocked.map((n) => [String(n), minutes(until)])) : null,
    holdOpenEnded: openEnded,
  });
const estimates = (h: QueueHarness) => statusView(h.state, "main", h.now).batches.map((b) => b.estimatedMergeAt);
const release = (h: QueueHarness, name: string) =>
  h.send({ type: "check_results", checkId: h.batch(name).batch.check!.id, conditions: true, checks: ci });
const leaveOf = (h: QueueHarness, n: number) => {
  const e = h.history.find((x) => x.kind === "log" && x.type === "action.queue.leave" && x.pullRequest === n);
  return e?.kind === "log" ? e.metadata : undefined;
};

/** Batch 1 [#1] running; Batch 2 [#2], checked on top of it, passed at +20 and waits for it. */
function passedBehindRunning(): QueueHarness {
  const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 2 }, rules: [queueRule()] }));
  h.queue(1);
  h.created("Batch 1", 101);
  h.queue(2);
  h.created("Batch 2", 102);
  h.at(20).ci("Batch 2", true);
  return h;
}

describe("a scheduled freeze over a batch whose checks pass", () => {
  it("shows it frozen, merges it when the freeze releases it, and counts the wait as freeze, not schedule", () => {
    const h = new QueueHarness(configuration({ rules: [queueRule()] }));
    h.queue(1);
    h.created("Batch 1", 101);
    h.at(30);
    freeze(h, "Batch 1", 120);
    expect(codes(h)).toEqual(["frozen"]);
    expect(estimates(h)).toEqual([minutes(120)]);
    expect(h.lines(["merge_batch"])).toEqual([]);
    expect(Object.keys(h.state.timers)).toEqual([`schedule/${h.batch("Batch 1").batch.check!.id}`]);
    h.at(120);
    release(h, "Batch 1");
    expect(h.lines(["merge_batch"])).toEqual(["merge Batch 1 [1] merge exact"]);
    h.merged("Batch 1");
    expect(leaveOf(h, 1)).toMatchObject({
      dequeue_code: "PR_MERGED",
      seconds_waiting_for_freeze: 90 * 60,
      seconds_waiting_for_schedule: 0,
    });
  });

  it("holds a batch that passed while it waits for the batch ahead, so the batch ahead merges alone", () => {
    const h = passedBehindRunning();
    expect(codes(h)).toEqual(["running", "waiting_for_merge"]);
    // A freeze begins that holds #2 only; Batch 2's check stays concluded (one checks_end).
    h.at(25);
    freeze(h, "Batch 2", 90);
    expect(codes(h)).toEqual(["running", "frozen"]);
    h.at(30).ci("Batch 1", true);
    expect(h.lines(["merge_batch"])).toEqual(["merge Batch 1 [1] merge exact"]);
    h.merged("Batch 1");
    expect(h.lines(["merge_batch"])).toEqual([]);
    expect(codes(h)).toEqual(["frozen"]);
    h.at(90);
    release(h, "Batch 2");
    expect(h.lines(["merge_batch"])).toEqual(["merge Batch 2 [2] merge exact"]);
    const ends = h.history.filter(
      (e) => e.kind === "log" && e.type === "action.queue.checks_end" && e.pullRequest === 2,
    );
    expect(ends).toHaveLength(1);
  });

  it("gives no merge estimate under an open-ended freeze, for the batch or those checked on top of it", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 3 }, rules: [queueRule()] }));
    h.queue(1);
    h.created("Batch 1", 101);
    h.at(30);
    freeze(h, "Batch 1", 30 + 8 * 24 * 60, undefined, true);
    h.queue(2);
    const view = statusView(h.state, "main", h.now);
    expect(view.batches.map((b) => [b.status.code, b.estimatedMergeAt])).toEqual([
      ["frozen", null],
      ["preparing", null],
    ]);
  });

  it("ignores other verdicts on a passed batch: it is not failed by a later evaluation", () => {
    const h = passedBehindRunning();
    h.send({ type: "check_results", checkId: h.batch("Batch 2").batch.check!.id, conditions: false, checks: ci });
    expect(codes(h)).toEqual(["running", "waiting_for_merge"]);
  });
});

describe("a frozen batch that holds up others gives way", () => {
  /** #1 frozen (open-ended: 8 days) at +30; #2, which the freeze lets through, passes behind it at +60. */
  function frozenWithPassedBehind(): QueueHarness {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 2 }, rules: [queueRule()] }));
    h.queue(1);
    h.created("Batch 1", 101);
    h.at(30);
    freeze(h, "Batch 1", 8 * 24 * 60);
    h.queue(2);
    h.created("Batch 2", 102);
    h.at(60).ci("Batch 2", true);
    return h;
  }

  it("with SCHEDULED_FREEZE_STATUS_CHANGED: the one behind is rechecked without it and merges; it stays queued", () => {
    const h = frozenWithPassedBehind();
    const aborted = h.effects.flatMap((e) =>
      e.kind === "log" && e.type === "action.queue.checks_end" && e.metadata.aborted
        ? [[e.pullRequest, e.metadata.abort_code]]
        : [],
    );
    expect(aborted).toEqual([[1, FROZEN]]);
    h.created("Batch 2", 103);
    const restart = h.effects.find((e) => e.kind === "log" && e.type === "action.queue.checks_start");
    expect(restart?.kind === "log" && restart.metadata.start_reason).toMatch(
      /^Rechecked without Batch 1, which a scheduled freeze holds until /,
    );
    h.at(90).ci("Batch 2", true);
    expect(h.lines(["merge_batch"])).toEqual(["merge Batch 2 [2] merge exact"]);
    h.merged("Batch 2");
    expect(leaveOf(h, 1)).toBeUndefined();
    expect(h.picture().slice(1)).toEqual(["  waiting [1]"]);
  });

  it("counts its wait outside the train up to when it leaves, if it leaves while frozen", () => {
    const h = frozenWithPassedBehind();
    h.at(100).send({ type: "dequeue_requested", number: 1, trigger: "API", source: "api" });
    expect(leaveOf(h, 1)).toMatchObject({ dequeue_code: "PR_MANUALLY_DEQUEUED", seconds_waiting_for_freeze: 70 * 60 });
  });

  it("and embarks again as soon as the freeze no longer holds it (freeze_released)", () => {
    const h = frozenWithPassedBehind();
    h.created("Batch 2", 103);
    h.at(90).ci("Batch 2", true);
    h.merged("Batch 2");
    h.at(100).send({ type: "timer_fired", key: "batch-wait/main/__default__" });
    expect(h.picture().slice(1)).toEqual(["  waiting [1]"]);
    // Released pull requests that gave way to a schedule, not a freeze, would be ignored.
    h.at(120).send({ type: "freeze_released", numbers: [1, 2] });
    expect(h.lines(["create_speculative_check"])).toEqual(["create Batch 3 [1] ahead []"]);
    h.created("Batch 3", 104);
    h.at(150).ci("Batch 3", true);
    h.merged("Batch 3");
    // Its batch was held from +30 until it gave way at +60, then it waited outside the train until
    // the freeze let it go at +120: 90 minutes. The CI of its new batch is no freeze wait.
    expect(leaveOf(h, 1)).toMatchObject({ dequeue_code: "PR_MERGED", seconds_waiting_for_freeze: 90 * 60 });
  });
});
