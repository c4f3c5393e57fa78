/**
 * A batch waiting for its merge schedule gives way to the pull requests it holds up
 * (docs/merge-queue.md rule 5, SCHEDULE_BLOCKED_AHEAD_YIELDED): the batches behind it whose checks
 * passed, and its own members whose schedule is open, when the schedule opens later than a
 * recheck would take.
 */
import { describe, expect, it } from "vitest";
import { statusView } from "../../services/engine/index.js";
import { batchOf, configuration, minutes, QueueHarness, queueRule } from "./fixtures.js";

const ci = [{ name: "ci", description: "tests", url: null, state: "success" as const, avatar_url: null }];
const YIELDED = "SCHEDULE_BLOCKED_AHEAD_YIELDED";

/** #1 held by its schedule from +30 until `opensAt` minutes; #2 queued behind it, its batch passes at +60 (CI 30 min). */
function heldWithPassedBehind(opensAt: number, mergeQueue: Record<string, unknown> = {}): QueueHarness {
  const h = new QueueHarness(
    configuration({ mergeQueue: { max_parallel_checks: 2, ...mergeQueue }, rules: [queueRule()] }),
  );
  h.queue(1);
  h.created("Batch 1", 101);
  h.at(30).send({
    type: "check_results",
    checkId: h.batch("Batch 1").batch.check!.id,
    conditions: false,
    checks: ci,
    scheduleOpensAt: minutes(opensAt),
  });
  h.queue(2);
  h.created("Batch 2", 102);
  h.at(60).ci("Batch 2", true);
  return h;
}

const abortCodes = (h: QueueHarness) =>
  h.effects.flatMap((e) =>
    e.kind === "log" && e.type === "action.queue.checks_end" && e.metadata.aborted
      ? [`#${e.pullRequest} ${e.metadata.abort_code}: ${e.metadata.abort_reason}`]
      : [],
  );

describe("a batch waiting for its merge schedule gives way", () => {
  it("to a batch behind it whose checks passed: that batch is rechecked without it and merges; it waits outside the train", () => {
    const h = heldWithPassedBehind(600);
    // Batch 2's check had concluded (its checks_end was logged); Batch 1's stops here.
    expect(abortCodes(h)).toEqual([
      `#1 ${YIELDED}: Its merge schedule is closed until 2026-01-05T19:00:00.000Z: it gave way to pull requests that can merge now`,
    ]);
    expect(h.picture().slice(1)).toEqual(["  Batch 2 [2] draft creating", "  waiting [1]"]);
    expect(h.lines(["schedule_timer"])).toContain("timer schedule-yield at +600m");
    // No leave: both stay queued.
    expect(h.lines(["action.queue.leave"])).toEqual([]);
    h.created("Batch 2", 103);
    const restart = h.effects.find((e) => e.kind === "log" && e.type === "action.queue.checks_start");
    expect(restart?.kind === "log" && restart.metadata.start_reason).toBe(
      "Rechecked without Batch 1, which waits for its merge schedule until 2026-01-05T19:00:00.000Z and gave way",
    );
    h.at(90).ci("Batch 2", true);
    expect(h.lines(["merge_batch"])).toEqual(["merge Batch 2 [2] merge exact"]);
    h.merged("Batch 2");
    // #1 is not embarked again before its schedule opens...
    h.at(300).send({ type: "timer_fired", key: "batch-wait/main/__default__" });
    expect(h.picture().slice(1)).toEqual(["  waiting [1]"]);
    // ...and is checked again, then merged, when it does.
    h.at(600).send({ type: "timer_fired", key: "schedule-yield/main/__default__" });
    expect(h.lines(["create_speculative_check"])).toEqual(["create Batch 3 [1] ahead []"]);
    h.created("Batch 3", 104);
    h.at(630).ci("Batch 3", true);
    expect(h.lines(["merge_batch"])).toEqual(["merge Batch 3 [1] merge exact"]);
    h.merged("Batch 3");
    // Held from +30, gave way at +60, waited outside the train until the schedule opened at +600.
    const leave = h.effects.find((e) => e.kind === "log" && e.type === "action.queue.leave" && e.pullRequest === 1);
    expect(leave?.kind === "log" && leave.metadata.seconds_waiting_for_schedule).toBe(570 * 60);
  });

  it("not when its schedule opens before a recheck would end: the batch behind waits for it", () => {
    const h = heldWithPassedBehind(75);
    expect(abortCodes(h)).toEqual([]);
    expect(h.lines(["merge_batch"])).toEqual([]);
    h.at(75).ci("Batch 1", true);
    expect(h.lines(["merge_batch"])).toEqual(["merge Batch 1 [1] merge exact"]);
    h.merged("Batch 1");
    expect(h.lines(["merge_batch"])).toEqual(["merge Batch 2 [2] merge exact"]);
  });

  it("not while nothing behind it could merge: a batch behind still running keeps its check", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 2 }, rules: [queueRule()] }));
    h.queue(1);
    h.queue(2);
    h.created("Batch 1", 101);
    h.created("Batch 2", 102);
    h.at(30).send({
      type: "check_results",
      checkId: h.batch("Batch 1").batch.check!.id,
      conditions: false,
      checks: ci,
      scheduleOpensAt: minutes(600),
    });
    expect(abortCodes(h)).toEqual([]);
    expect(statusView(h.state, "main", h.now).batches.map((b) => b.status.code)).toEqual([
      "waiting_schedule",
      "running",
    ]);
  });

  it("within its own batch: the members whose schedule is open are rechecked without the blocked ones", () => {
    const h = new QueueHarness(
      configuration({
        mergeQueue: { max_parallel_checks: 2 },
        rules: [queueRule({ batch_size: batchOf(2), batch_max_wait_time: 600 })],
      }),
    );
    h.queue(1);
    h.queue(2);
    h.created("Batch 1", 101);
    const check = h.batch("Batch 1").batch.check!.id;
    // #2's merge conditions hold; #1's wait for a schedule opening at +600.
    h.at(30).send({
      type: "check_results",
      checkId: check,
      conditions: false,
      checks: ci,
      scheduleOpensAt: minutes(600),
      scheduleBlocked: { "1": minutes(600) },
    });
    expect(abortCodes(h)).toEqual([
      `#1 ${YIELDED}: Its merge schedule is closed until 2026-01-05T19:00:00.000Z: it gave way to pull requests that can merge now`,
      `#2 ${YIELDED}: Rechecked without the pull requests of Batch 1 whose merge schedule is closed until 2026-01-05T19:00:00.000Z`,
    ]);
    // #2 goes at once (the batch does not wait to fill: it was ready long ago); #1 waits for +600.
    expect(h.picture().slice(1)).toEqual(["  Batch 2 [2] draft creating", "  waiting [1]"]);
  });

  it("when the check says nothing of its members, all of them wait for the schedule", () => {
    const h = heldWithPassedBehind(600);
    expect(h.state.pulls["1"]!.scheduleYieldUntil).toBe(minutes(600));
    expect(h.state.pulls["2"]!.scheduleYieldUntil ?? null).toBe(null);
  });

  it("with skip_intermediate_results, a batch behind never merges a batch whose schedule is closed: the held one gives way instead", () => {
    const h = heldWithPassedBehind(600, { skip_intermediate_results: true });
    expect(h.lines(["merge_batch"])).toEqual([]);
    expect(abortCodes(h).map((l) => l.split(":")[0])).toEqual([`#1 ${YIELDED}`]);
    expect(h.picture().slice(1)).toEqual(["  Batch 2 [2] draft creating", "  waiting [1]"]);
  });

  it("the waiting pull request's estimated merge is after its schedule opens", () => {
    const h = heldWithPassedBehind(600);
    const waiting = statusView(h.state, "main", h.now).waitingPullRequests;
    expect(waiting.map((w) => w.number)).toEqual([1]);
    expect(waiting[0]!.estimatedMergeAt).toBeGreaterThanOrEqual(minutes(600));
  });
});
