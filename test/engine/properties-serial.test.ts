/**
 * Property-based invariants of the engine in serial mode (the mode with the strictest guarantee):
 * random arrivals (breaking or not, priorities, stacks), CI outcomes and flakes (or failures with
 * test identities: quarantined, known flaky, new flaky tests, culprits their tests point to, the
 * engine reading them or blind to them), dequeues, pushes,
 * pauses, configuration changes, external pushes, pull requests moved to another base, commits
 * pushed to drafts, a deleted base branch, a closed merge window and a scheduled freeze (for every
 * pull request or some, so that batches give way to them), each scenario run on the virtual forge
 * then drained. Every step is checked (metadata exactly as events.proto, state consistency, dequeue
 * impact predicted = observed); at the end: with reset_on_external_merge "always" the base only
 * ever received trees whose exact content passed (no breaking pull request merged; a check failing
 * only on quarantined tests tested its tree, by definition: docs/merge-queue.md), nothing merged
 * twice or lost, nothing an active freeze holds merged, checks_start/checks_end and enter/leave
 * paired. Replay a failure with
 * ENGINE_PROPERTY_SEED=<seed>.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runs, scenarios } from "./scenario-generators.js";
import { runScenario } from "./scenario-runner.js";

describe("engine invariants in serial mode", () => {
  it("hold over 6,000 random scenarios", () => {
    const seen = new Set<string>();
    let merged = 0;
    fc.assert(
      fc.property(scenarios(["serial"]), (s) => {
        const outcome = runScenario(s);
        outcome.seen.forEach((x) => seen.add(x));
        merged += outcome.merged;
        expect(outcome.problems).toEqual([]);
      }),
      runs(6000),
    );
    // The generator really exercises the queue: merges, failures, bisections, resets, dequeues.
    expect(merged).toBeGreaterThan(1000);
    for (const expected of [
      "CHECKS_FAILED",
      "PR_MANUALLY_DEQUEUED",
      "PULL_REQUEST_UPDATED",
      "BATCH_AHEAD_FAILED",
      "MERGE_QUEUE_RESET",
      "PR_CHECKS_STOPPED_BECAUSE_MERGE_QUEUE_PAUSE",
      "CHECKS_RETRIED",
      "CHECKS_TIMEOUT",
      "QUEUE_RULE_MISSING",
      "STACK_PREDECESSOR_DEQUEUED",
      "DROPPED_BY_BISECTION_ELIMINATION",
      "PR_WITH_HIGHER_PRIORITY_QUEUED",
      "action.queue.batch_bisection_start",
      "PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED",
      "BASE_BRANCH_MISSING",
      "BASE_BRANCH_CHANGED",
      "DRAFT_PULL_REQUEST_CHANGED",
      "BATCH_AHEAD_BRANCH_EDITED",
      "seconds_waiting_for_schedule",
      "SCHEDULE_BLOCKED_AHEAD_YIELDED",
      "seconds_waiting_for_freeze",
      "SCHEDULED_FREEZE_STATUS_CHANGED",
      // The tests workload: quarantined failures passed, known flaky ones re-run, suspects checked first.
      "ignored_failing_tests",
      "ci_insights.job_retried",
      "suspect_first",
    ]) {
      expect(seen, expected).toContain(expected);
    }
  });
});
