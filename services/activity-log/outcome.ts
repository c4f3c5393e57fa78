/**
 * The outcome of an event, derived on ingest from its type and metadata: one table, documented in
 * docs/activity-log.md ("Outcomes"). Most types map directly; seven refine from metadata
 * (docs/activity-log.md "Aggregates" rule 3; docs/activity-log.md "Outcomes").
 */
export type Outcome = "success" | "failure" | "pending" | "neutral";

// biome-ignore lint/suspicious/noExplicitAny: event metadata is a JSON object whose shape depends on the event type
type Rule = Outcome | ((metadata: Record<string, any>) => Outcome);

/** Codes that record a person's decision rather than a failure of the queue: their leave / abort is neutral. */
const DECISION_CODES = new Set(["PR_MANUALLY_DEQUEUED", "PR_MANUALLY_MERGED"]);
/** post_check conclusions that are failures; other non-success conclusions (and null) are neutral. */
const FAILED_CONCLUSIONS = new Set(["failure", "timed_out", "startup_failure"]);

/** Types not listed are neutral. */
const RULES: Record<string, Rule> = {
  "action.merge": "success",
  "action.queue.merged": "success",
  "action.queue.enter": "pending",
  "action.queue.checks_start": "pending",
  "action.queue.batch_bisection_start": "pending",
  "action.queue.conflict_deferred": "pending",
  "action.queue.checks_postponed": "failure",
  // Merged (PR_MERGED, PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED): success; dequeued or merged by a
  // person: neutral; any other reason: failure.
  "action.queue.leave": (m) =>
    m.merged === true ? "success" : DECISION_CODES.has(m.dequeue_code) ? "neutral" : "failure",
  // Concluded success and not aborted: success; aborted but re-embarked (the pull requests stay
  // queued) or aborted by a person's decision: neutral; anything else (failed, timed out,
  // aborted for good): failure.
  "action.queue.checks_end": (m) =>
    m.aborted === false
      ? m.speculative_check_pull_request?.checks_conclusion === "success"
        ? "success"
        : "failure"
      : m.abort_status === "REEMBARKED" || DECISION_CODES.has(m.abort_code)
        ? "neutral"
        : "failure",
  "action.queue.batch_bisection_end": (m) => (m.culprit_found === true ? "success" : "failure"),
  "action.post_check": (m) =>
    m.conclusion === "success" ? "success" : FAILED_CONCLUSIONS.has(m.conclusion) ? "failure" : "neutral",
  // A backport or copy that met conflicts needs a person: failure.
  "action.backport": (m) => (m.conflicts === true ? "failure" : "success"),
  "action.copy": (m) => (m.conflicts === true ? "failure" : "success"),
  "ci_insights.job_retried": (m) => (m.outcome === "retried" ? "success" : "failure"),
};

/**
 * The actions of pull request rules (docs/workflow-automation.md "Actions"): failure when the
 * metadata carries the forge's `error`, else success (or the type's own rule above).
 */
const WORKFLOW_ACTIONS = new Set(
  [
    "assign",
    "backport",
    "close",
    "comment",
    "copy",
    "delete_head_branch",
    "dismiss_reviews",
    "edit",
    "host_actions",
    "label",
    "merge",
    "post_check",
    "rebase",
    "refresh",
    "request_reviews",
    "review",
    "squash",
    "update",
  ].map((a) => `action.${a}`),
);

/** The outcome of an event of `type` with this (validated) metadata. */
export function outcomeOf(type: string, metadata: Record<string, unknown>): Outcome {
  if (WORKFLOW_ACTIONS.has(type)) {
    if (typeof metadata.error === "string") return "failure";
    if (RULES[type] === undefined) return "success";
  }
  const rule = RULES[type];
  if (rule === undefined) return "neutral";
  return typeof rule === "string" ? rule : rule(metadata);
}

/** The table as [type, description] rows, for docs and tests. */
export const OUTCOME_RULES: Readonly<Record<string, Rule>> = RULES;
