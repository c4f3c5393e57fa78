/**
 * The log events of CI Insights (events.proto, docs/events.md "Event types"): test.quarantined,
 * test.dequarantined, ci_insights.auto_quarantine.enabled|disabled|modified and
 * ci_insights.job_retried, as outbox rows written in the transaction of the change they record.
 * The trigger says who acted: "API" for a person, "CI Insights auto-quarantine" and "CI Insights
 * retry rule: <name>" for Yardmaster's own decisions.
 */
import { internalEventRow, type EventInput } from "../activity-log/index.js";
import type { ActorInfo } from "../auth/index.js";
import type { EventRow, ciInsightsStore } from "../store/index.js";

type QuarantineRow = ciInsightsStore.QuarantineRow;
type AutoQuarantineRow = ciInsightsStore.AutoQuarantineRow;

/** The trigger of what auto-quarantine and the expiry sweep do. */
export const AUTO_TRIGGER = "CI Insights auto-quarantine";

const iso = (d: Date) => d.toISOString();
const actorJson = (a: ActorInfo) => ({ type: a.type, id: a.id, name: a.name });

function row(e: Omit<EventInput, "pullRequest" | "receivedAt">): EventRow {
  return internalEventRow({ ...e, pullRequest: null, receivedAt: null });
}

/** test.quarantined for a new quarantine; `by` null for an automatic one. */
export function quarantinedEvent(q: QuarantineRow, by: ActorInfo | null): EventRow {
  return row({
    type: "test.quarantined",
    repository: q.repository,
    baseRef: q.branch,
    trigger: by === null ? AUTO_TRIGGER : "API",
    metadata: {
      quarantine_id: q.id,
      ...(q.testId ? { test_id: q.testId } : {}),
      test_name: q.testName,
      source: q.source,
      reason: q.reason,
      branch: q.branch,
      quarantined_at: iso(q.createdAt),
      health_status_at_event: q.healthStatusAtEvent,
      quarantined_by: by === null ? null : actorJson(by),
      quarantined_by_staff: false,
    },
  });
}

/** test.dequarantined for a quarantine lifted by `by` (manual) or by its expiry (null: auto). */
export function dequarantinedEvent(q: QuarantineRow, by: ActorInfo | null, at: Date): EventRow {
  return row({
    type: "test.dequarantined",
    repository: q.repository,
    baseRef: q.branch,
    trigger: by === null ? AUTO_TRIGGER : "API",
    metadata: {
      quarantine_id: q.id,
      ...(q.testId ? { test_id: q.testId } : {}),
      test_name: q.testName,
      source: by === null ? "auto" : "manual",
      original_quarantine: {
        source: q.source,
        reason: q.reason,
        branch: q.branch,
        created_at: iso(q.createdAt),
        health_status_at_event: q.healthStatusAtEvent,
      },
      dequarantined_at: iso(at),
      dequarantined_by: by === null ? null : actorJson(by),
      dequarantined_by_staff: false,
    },
  });
}

const attrs = (s: AutoQuarantineRow) => ({
  ignore_broken_on_default_branch: s.ignoreBrokenOnDefaultBranch,
  window_days: s.windowDays,
  min_runs: s.minRuns,
  flakiness_threshold: s.flakinessThreshold,
  recovery_days: s.recoveryDays,
  expiry_days: s.expiryDays,
});

/** ci_insights.auto_quarantine.enabled, .disabled or .modified for a settings change. */
export function autoQuarantineEvent(
  repository: string,
  before: AutoQuarantineRow,
  after: AutoQuarantineRow,
  by: ActorInfo,
  at: Date,
): EventRow {
  const base = { repository, baseRef: null, trigger: "API" };
  if (!before.enabled && after.enabled)
    return row({
      ...base,
      type: "ci_insights.auto_quarantine.enabled",
      metadata: {
        enabled_by: actorJson(by),
        enabled_at: iso(at),
        auto_quarantine_config_attributes: attrs(after),
        enabled_by_staff: false,
      },
    });
  if (before.enabled && !after.enabled)
    return row({
      ...base,
      type: "ci_insights.auto_quarantine.disabled",
      metadata: {
        disabled_by: actorJson(by),
        disabled_at: iso(at),
        auto_quarantine_config_attributes: attrs(after),
        disabled_by_staff: false,
      },
    });
  return row({
    ...base,
    type: "ci_insights.auto_quarantine.modified",
    metadata: {
      updated_by: actorJson(by),
      updated_at: iso(at),
      auto_quarantine_config_attributes_before: attrs(before),
      auto_quarantine_config_attributes_after: attrs(after),
      updated_by_staff: false,
    },
  });
}

/** What a retry decision says, for ci_insights.job_retried. */
export interface RetryDecisionEvent {
  repository: string;
  branch: string | null;
  ruleId: string;
  ruleName: string;
  maxRetry: number;
  retryMode: "job" | "pipeline";
  attempt: number;
  conditionMatches: Record<string, unknown>[];
  outcome: "retried" | "skipped_quota_exceeded";
  workflowRunId: number | null;
  jobUrl: string | null;
}

/** ci_insights.job_retried for a retry decision. */
export function jobRetriedEvent(d: RetryDecisionEvent): EventRow {
  return row({
    type: "ci_insights.job_retried",
    repository: d.repository,
    baseRef: d.branch,
    trigger: `CI Insights retry rule: ${d.ruleName}`,
    metadata: {
      rule_id: d.ruleId,
      rule_name: d.ruleName,
      max_retry: d.maxRetry,
      retry_mode: d.retryMode,
      retry_attempt: d.attempt,
      condition_matches: d.conditionMatches,
      outcome: d.outcome,
      workflow_run_id: d.workflowRunId,
      job_url: d.jobUrl,
    },
  });
}
