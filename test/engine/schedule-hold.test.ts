/**
 * A check whose merge conditions are false only because a schedule is closed (docs/merge-queue.md
 * rule 5, docs/domain.md §3.9 `waiting_schedule`): it waits for the schedule instead of
 * failing, without a checks timeout, shows `waiting_schedule`, is evaluated again when the
 * schedule opens (a timer), and its pull requests' leave events count the wait. What it holds up
 * behind it: schedule-yield.test.ts.
 */
import { describe, expect, it } from "vitest";
import { statusView } from "../../services/engine/index.js";
import { configuration, minutes, QueueHarness, queueRule, STORY } from "./fixtures.js";

const withTimeout = configuration({
  mergeQueue: { max_parallel_checks: 2 },
  rules: [queueRule({ checks_timeout: 3600 })],
});
const ci = [{ name: "ci", description: "tests", url: null, state: "success" as const, avatar_url: null }];

function heldBatch(): QueueHarness {
  const h = new QueueHarness(withTimeout);
  h.queue(1);
  h.created("Batch 1", 101);
  h.at(30).send({
    type: "check_results",
    checkId: h.batch("Batch 1").batch.check!.id,
    conditions: false,
    checks: ci,
    scheduleOpensAt: minutes(600),
  });
  return h;
}

describe("a merge window closed when the checks pass", () => {
  it("waits for the window: no failure, no checks_end, a timer at its opening instead of the timeout", () => {
    const h = heldBatch();
    expect(h.lines(STORY)).toEqual(["cancel timer checks-timeout", "timer schedule at +600m"]);
    expect(Object.keys(h.state.timers)).toEqual([`schedule/${h.batch("Batch 1").batch.check!.id}`]);
    expect(statusView(h.state, "main", h.now).batches.map((b) => b.status.code)).toEqual(["waiting_schedule"]);
    // Long past checks_timeout (60 min): still waiting, not timed out.
    h.at(300).send({ type: "timer_fired", key: `checks-timeout/${h.batch("Batch 1").batch.check!.id}` });
    expect(h.lines(STORY)).toEqual([]);
    expect(h.batch("Batch 1").batch.check!.phase).toBe("running");
  });

  it("merges once the conditions hold, and the leave counts the wait in seconds_waiting_for_schedule", () => {
    const h = heldBatch();
    h.at(600).send({
      type: "check_results",
      checkId: h.batch("Batch 1").batch.check!.id,
      conditions: true,
      checks: ci,
    });
    expect(h.lines(["merge_batch", "action.queue.checks_end"])).toEqual([
      "log action.queue.checks_end #1 Batch 1 success",
      "merge Batch 1 [1] merge exact",
    ]);
    h.merged("Batch 1");
    const leave = h.effects.find((e) => e.kind === "log" && e.type === "action.queue.leave");
    expect(leave?.kind === "log" && leave.metadata.seconds_waiting_for_schedule).toBe(570 * 60);
    // The CI's own duration (30 min), not the wait, feeds the estimates.
    expect(h.state.ciDurations).toEqual([30 * 60_000]);
  });

  it("does not count the wait against checks_timeout when a check runs again after it", () => {
    const h = heldBatch();
    h.at(600).send({
      type: "check_results",
      checkId: h.batch("Batch 1").batch.check!.id,
      conditions: "pending",
      checks: ci,
    });
    // Started at 0, 60 min timeout, 570 min waited: it times out at 630, not at once.
    expect(h.lines(["schedule_timer", "cancel_timer", "action.queue.leave"])).toEqual([
      "cancel timer schedule",
      "timer checks-timeout at +630m",
    ]);
    h.at(631).send({ type: "timer_fired", key: `checks-timeout/${h.batch("Batch 1").batch.check!.id}` });
    expect(h.logs()).toContain("log action.queue.leave #1 CHECKS_TIMEOUT");
  });

  it("fails as usual when something other than the schedule turns the conditions false", () => {
    const h = heldBatch();
    h.at(100).ci("Batch 1", false);
    expect(h.lines(STORY)).toContain("log action.queue.leave #1 CHECKS_FAILED");
  });
});
