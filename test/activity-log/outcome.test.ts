/**
 * The outcome table (docs/activity-log.md "Outcomes"): the outcome of each of the 47
 * types for its sample metadata, and every metadata refinement.
 */
import { describe, expect, it } from "vitest";
import { EVENT_TYPES, outcomeOf } from "../../services/activity-log/index.js";
import { METADATA_BUILDERS } from "./event-samples.js";
import { speculativeCheck } from "./event-samples-shared.js";

/** Outcome of each type's sample (event-samples.ts): the direct mappings, and the refined types' sample outcome. */
const SAMPLE_OUTCOME: Record<string, string> = {
  "action.merge": "success",
  "action.queue.merged": "success",
  "action.queue.enter": "pending",
  "action.queue.checks_start": "pending",
  "action.queue.batch_bisection_start": "pending",
  "action.queue.conflict_deferred": "pending",
  "action.queue.checks_postponed": "failure",
  "action.queue.leave": "success", // merged
  "action.queue.checks_end": "success", // concluded success, not aborted
  "action.queue.batch_bisection_end": "success", // culprit found
  "action.post_check": "success",
  "action.backport": "success", // no conflicts
  "action.copy": "failure", // conflicts
  "ci_insights.job_retried": "success", // retried
  // The other actions of pull request rules: success unless their metadata carries an error.
  ...Object.fromEntries(
    [
      "assign",
      "close",
      "comment",
      "delete_head_branch",
      "dismiss_reviews",
      "edit",
      "host_actions",
      "label",
      "rebase",
      "refresh",
      "request_reviews",
      "review",
      "squash",
      "update",
    ].map((a) => [`action.${a}`, "success"]),
  ),
};

describe("outcome of each event type", () => {
  it.each([...EVENT_TYPES.keys()])("%s", (type) => {
    expect(outcomeOf(type, METADATA_BUILDERS[type]())).toBe(SAMPLE_OUTCOME[type] ?? "neutral");
  });
});

describe("outcomes refined from metadata", () => {
  it("an action of pull request rules whose forge refused it is a failure, whatever else it says", () => {
    expect(outcomeOf("action.label", { added: ["x"], removed: [], error: "label: too long" })).toBe("failure");
    expect(outcomeOf("action.backport", { to: "v1", pull_request_number: 0, conflicts: false, error: "no" })).toBe(
      "failure",
    );
    expect(outcomeOf("action.post_check", { conclusion: "success", title: "", summary: "", error: "x" })).toBe(
      "failure",
    );
  });
  const checksEnd = (o: Record<string, unknown>, conclusion = "success") =>
    METADATA_BUILDERS["action.queue.checks_end"]({
      speculative_check_pull_request: speculativeCheck({ checks_conclusion: conclusion }),
      ...o,
    });
  it.each([
    ["checks_end concluded success", "action.queue.checks_end", checksEnd({ aborted: false }), "success"],
    ["checks_end concluded failure", "action.queue.checks_end", checksEnd({ aborted: false }, "failure"), "failure"],
    ["checks_end timed out", "action.queue.checks_end", checksEnd({ aborted: false }, "timed_out"), "failure"],
    [
      "checks_end aborted, re-embarked",
      "action.queue.checks_end",
      checksEnd({ aborted: true, abort_code: "PR_AHEAD_DEQUEUED", abort_status: "REEMBARKED" }, "cancelled"),
      "neutral",
    ],
    [
      "checks_end aborted for good",
      "action.queue.checks_end",
      checksEnd({ aborted: true, abort_code: "CHECKS_TIMEOUT", abort_status: "DEFINITIVE" }, "cancelled"),
      "failure",
    ],
    [
      "checks_end aborted by a manual dequeue",
      "action.queue.checks_end",
      checksEnd({ aborted: true, abort_code: "PR_MANUALLY_DEQUEUED", abort_status: "DEFINITIVE" }, "cancelled"),
      "neutral",
    ],
    [
      "leave merged",
      "action.queue.leave",
      METADATA_BUILDERS["action.queue.leave"]({ merged: true, dequeue_code: "PR_MERGED" }),
      "success",
    ],
    [
      "leave after failed checks",
      "action.queue.leave",
      METADATA_BUILDERS["action.queue.leave"]({ merged: false, dequeue_code: "CHECKS_FAILED" }),
      "failure",
    ],
    [
      "leave dequeued by a user",
      "action.queue.leave",
      METADATA_BUILDERS["action.queue.leave"]({ merged: false, dequeue_code: "PR_MANUALLY_DEQUEUED" }),
      "neutral",
    ],
    [
      "leave merged outside the queue",
      "action.queue.leave",
      METADATA_BUILDERS["action.queue.leave"]({ merged: false, dequeue_code: "PR_MANUALLY_MERGED" }),
      "neutral",
    ],
    [
      "leave with no code",
      "action.queue.leave",
      METADATA_BUILDERS["action.queue.leave"]({ merged: false, dequeue_code: null }),
      "failure",
    ],
    [
      "bisection found no culprit",
      "action.queue.batch_bisection_end",
      METADATA_BUILDERS["action.queue.batch_bisection_end"]({ culprit_found: false }),
      "failure",
    ],
    [
      "post_check failure",
      "action.post_check",
      METADATA_BUILDERS["action.post_check"]({ conclusion: "failure" }),
      "failure",
    ],
    [
      "post_check timed_out",
      "action.post_check",
      METADATA_BUILDERS["action.post_check"]({ conclusion: "timed_out" }),
      "failure",
    ],
    [
      "post_check startup_failure",
      "action.post_check",
      METADATA_BUILDERS["action.post_check"]({ conclusion: "startup_failure" }),
      "failure",
    ],
    [
      "post_check cancelled",
      "action.post_check",
      METADATA_BUILDERS["action.post_check"]({ conclusion: "cancelled" }),
      "neutral",
    ],
    [
      "post_check without conclusion",
      "action.post_check",
      METADATA_BUILDERS["action.post_check"]({ conclusion: null }),
      "neutral",
    ],
    [
      "backport with conflicts",
      "action.backport",
      METADATA_BUILDERS["action.backport"]({ conflicts: true }),
      "failure",
    ],
    ["copy without conflicts", "action.copy", METADATA_BUILDERS["action.copy"]({ conflicts: false }), "success"],
    [
      "job retry skipped (quota)",
      "ci_insights.job_retried",
      METADATA_BUILDERS["ci_insights.job_retried"]({ outcome: "skipped_quota_exceeded" }),
      "failure",
    ],
  ])("%s", (_name, type, metadata, outcome) => {
    expect(outcomeOf(type, metadata)).toBe(outcome);
  });
});
