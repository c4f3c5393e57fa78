/**
 * The `config` object the API shows for a queue rule (docs/configuration.md "API output of queue rules"): durations
 * in seconds, unset strings as "" (docs/domain.md §1.2 "API output"), and the list of queue
 * rules in processing order. docs/configuration.md "API output of queue rules" records the choices below.
 */
import type { Configuration, QueueRuleConfig } from "../model.js";

/** docs/configuration.md "API output of queue rules" keys. */
export interface QueueRuleApiConfig {
  priority: number;
  /** The fixed size, or the maximum of a `{min, max}` range. */
  batch_size: number;
  /** The smallest batch: the fixed size, or the `min` of the range. */
  batch_size_min: number;
  /** The largest batch: the fixed size, or the `max` of the range (= batch_size). */
  batch_size_max: number;
  /** Seconds. */
  batch_max_wait_time: number;
  /** The queue's `merge_queue.max_parallel_checks` as it runs (one value shared by every rule). */
  max_parallel_checks: number;
  allow_inplace_checks: boolean;
  allow_queue_branch_edit: boolean;
  /** Seconds; 0 when there is no fixed timeout (null, or "auto" without a computed value). */
  checks_timeout: number;
  draft_bot_account: string;
  queue_branch_prefix: string;
  queue_branch_merge_method: string;
  /** null = unlimited (0 has its own meaning: no bisection). */
  batch_max_failure_resolution_attempts: number | null;
  commit_message_template: string;
  merge_bot_account: string;
  merge_method: string;
  update_bot_account: string;
  update_method: string;
  /** Only for a self-tuned rule (docs/self-tuning.md "Where it shows"). */
  self_tuning?: SelfTuningApi;
  /** Only when the rule turns it on (docs/merge-queue.md "Risk-aware batching"). */
  risk_aware_batching?: true;
}

/** Batch size, batch wait (seconds) and parallel checks of a queue rule. */
export interface TunableSettingsApi {
  batch_size: { min: number; max: number };
  batch_max_wait_time: number;
  max_parallel_checks: number;
}

/**
 * `self_tuning` of a self-tuned rule (docs/self-tuning.md "Where it shows"): the settings it runs
 * with (those of {@link TunableSettingsApi}, chosen from the traffic, or the static defaults until
 * there is enough of it), `configured` the ones the configuration gives (the static defaults,
 * since the rule sets none), and `observed` the traffic the running settings were chosen from (null
 * while they are the static defaults): pull requests queued per hour, the median CI duration in
 * seconds, the failure rate (0-1) and when it was computed (RFC 3339, UTC).
 */
export interface SelfTuningApi extends TunableSettingsApi {
  configured: TunableSettingsApi;
  observed: { arrivals_per_hour: number; ci_duration: number; failure_rate: number; computed_at: string | null } | null;
}

/**
 * The traffic a self-tuned rule's running settings were chosen from, as the engine keeps it
 * (`ObservedTraffic`, services/engine/traffic.ts; config/ may not import the engine): pull
 * requests per hour, median CI seconds, failure rate (0-1), `measuredAt` ms since the epoch (UTC).
 */
export interface TunedFrom {
  arrivalsPerHour: number;
  ciSeconds: number;
  failureRate: number;
  measuredAt?: number;
}

/** The settings the queue runs with (the engine state's configuration), by queue rule name. Seconds. */
export interface RunningSettings {
  maxParallelChecks: number;
  rules: Record<string, { batchSize: { min: number; max: number }; batchMaxWaitTime: number }>;
  /** The traffic the self-tuned rules' settings were chosen from; null or absent: the static defaults. */
  tunedFrom?: TunedFrom | null;
}

function selfTuning(rule: QueueRuleConfig, running: RunningSettings | null, maxParallelChecks: number): SelfTuningApi {
  const now = running?.rules[rule.name];
  const t = running?.tunedFrom ?? null;
  return {
    batch_size: now?.batchSize ?? rule.batch_size,
    batch_max_wait_time: now?.batchMaxWaitTime ?? rule.batch_max_wait_time,
    max_parallel_checks: running?.maxParallelChecks ?? maxParallelChecks,
    configured: {
      batch_size: rule.batch_size,
      batch_max_wait_time: rule.batch_max_wait_time,
      max_parallel_checks: maxParallelChecks,
    },
    observed: t && {
      arrivals_per_hour: t.arrivalsPerHour,
      ci_duration: t.ciSeconds,
      failure_rate: t.failureRate,
      computed_at: t.measuredAt === undefined ? null : new Date(t.measuredAt).toISOString(),
    },
  };
}

/**
 * The API `config` of one queue rule.
 * @param autoChecksTimeout seconds the engine computed for `checks_timeout: auto`, if any
 * @param running the settings the queue runs with: `max_parallel_checks`, and a self-tuned rule's batch settings
 *   and traffic (null: not running yet)
 * @param maxParallelChecks the configuration's `merge_queue.max_parallel_checks` (static default of a self-tuned
 *   rule), shown until the queue runs
 */
export function queueRuleApiConfig(
  rule: QueueRuleConfig,
  autoChecksTimeout: number | null = null,
  running: RunningSettings | null = null,
  maxParallelChecks = 5,
): QueueRuleApiConfig {
  const timeout = rule.checks_timeout === "auto" ? (autoChecksTimeout ?? 0) : (rule.checks_timeout ?? 0);
  const tuned = rule.self_tuned ? selfTuning(rule, running, maxParallelChecks) : null;
  return {
    priority: rule.priority,
    batch_size: (tuned?.batch_size ?? rule.batch_size).max,
    batch_size_min: (tuned?.batch_size ?? rule.batch_size).min,
    batch_size_max: (tuned?.batch_size ?? rule.batch_size).max,
    batch_max_wait_time: tuned?.batch_max_wait_time ?? rule.batch_max_wait_time,
    max_parallel_checks: running?.maxParallelChecks ?? maxParallelChecks,
    allow_inplace_checks: rule.allow_inplace_checks,
    allow_queue_branch_edit: rule.allow_queue_branch_edit,
    checks_timeout: timeout,
    draft_bot_account: rule.draft_bot_account ?? "",
    queue_branch_prefix: rule.queue_branch_prefix,
    queue_branch_merge_method: rule.queue_branch_merge_method ?? "",
    batch_max_failure_resolution_attempts: rule.batch_max_failure_resolution_attempts,
    commit_message_template: rule.commit_message_template ?? "",
    merge_bot_account: rule.merge_bot_account ?? "",
    merge_method: rule.merge_method ?? "",
    update_bot_account: rule.update_bot_account ?? "",
    update_method: rule.update_method ?? "",
    ...(tuned ? { self_tuning: tuned } : {}),
    ...(rule.risk_aware_batching ? { risk_aware_batching: true as const } : {}),
  };
}

/**
 * `/queues/configuration`: every queue rule with its API config, in processing order (file
 * order: the first rule is tried first and ranks highest); self-tuned rules show `running`
 * (null: the static defaults, before the queue has run).
 */
export function queueRulesApiConfiguration(
  config: Configuration,
  autoChecksTimeout: number | null = null,
  running: RunningSettings | null = null,
): { name: string; config: QueueRuleApiConfig }[] {
  const parallel = config.merge_queue.max_parallel_checks;
  return [...config.queue_rules]
    .sort((a, b) => b.priority - a.priority)
    .map((rule) => ({ name: rule.name, config: queueRuleApiConfig(rule, autoChecksTimeout, running, parallel) }));
}
