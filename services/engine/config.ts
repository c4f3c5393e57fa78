/**
 * The part of the effective configuration the engine reads, projected from the configuration
 * module's types (services/config/model.ts) into plain JSON data kept in the engine
 * state. Conditions are not kept: the runner evaluates them and feeds the results as events; the
 * engine only needs to know whether the merge conditions equal the queue conditions (in-place
 * rule, docs/domain.md §3.4) and a fingerprint of the settings that make a running check
 * obsolete when they change (CONFIGURATION_CHANGED, docs/domain.md §3.6).
 */
import type {
  MergeMethodSetting,
  MergeQueueConfig,
  PartitionRuleConfig,
  PriorityRuleConfig,
  QueueRuleConfig,
  ScopesConfig,
} from "../config/index.js";
import type { ObservedTraffic } from "./traffic.js";

/** One queue rule as the engine uses it. Durations in seconds, as in the configuration. */
export interface EngineQueueRule {
  name: string;
  /** File order rank, first rule highest (QueueRuleConfig.priority). */
  rank: number;
  batchSize: { min: number; max: number };
  /** Seconds. */
  batchMaxWaitTime: number;
  /** Seconds, "auto" (p95 of recent CI durations plus a margin) or null (never). */
  checksTimeout: number | "auto" | null;
  maxChecksRetries: number;
  /** null = unlimited; 0 = dequeue a failed batch without bisecting. */
  batchMaxFailureResolutionAttempts: number | null;
  /** null: the repository's default, the first method it allows (the forge resolves it at merge time; docs/configuration.md). */
  mergeMethod: MergeMethodSetting | null;
  updateMethod: "merge" | "rebase";
  queueBranchPrefix: string;
  draftBotAccount: string | null;
  mergeBotAccount: string | null;
  updateBotAccount: string | null;
  allowInplaceChecks: boolean;
  /**
   * allow_queue_branch_edit: commits pushed to a draft by someone else keep the batch (checked
   * again on the new head) instead of dequeueing it. Absent in states saved before it existed (= false).
   */
  allowQueueBranchEdit?: boolean;
  /**
   * risk_aware_batching: a risky pull request (risk.ts) ends its batch, alone when it comes first.
   * Absent in states saved before it existed (= false).
   */
  riskAwareBatching?: boolean;
  /** merge_conditions empty or equal to queue_conditions: the pull request's own CI is the check. */
  singleStepCi: boolean;
  /** Changes of these settings invalidate a running check of this rule. */
  checkFingerprint: string;
  commitMessageFormat: QueueRuleConfig["commit_message_format"];
}

/** What the engine keeps of `merge_queue`, `scopes` and `partition_rules`. */
export interface EngineConfig {
  queueRules: EngineQueueRule[];
  maxParallelChecks: number;
  mode: "serial" | "parallel" | "isolated";
  resetOnExternalMerge: "always" | "never";
  skipIntermediateResults: boolean;
  queuedLabel: string | null;
  checkingLabel: string | null;
  dequeuedLabel: string | null;
  statusComments: "all" | "outcomes" | "none";
  /** Scope name -> cap of batches checked at once that touch it; absent = defaultCapacity. */
  scopeCapacities: Record<string, number>;
  defaultScopeCapacity: number | null;
  /** Partition names in file order; empty = no partitions (one "__default__" train). */
  partitions: string[];
  /**
   * The observed traffic the self-tuned rules' settings were chosen from (docs/self-tuning.md);
   * null (or absent, in states saved before it existed) when no rule is tuned from traffic.
   */
  tunedFrom?: ObservedTraffic | null;
}

/** Sections of the effective configuration carried by a `configuration_changed` event. */
export interface ConfigurationInput {
  queue_rules: QueueRuleConfig[];
  merge_queue: MergeQueueConfig;
  /** Kept for completeness: priority rules are evaluated by the runner, never by the engine. */
  priority_rules: PriorityRuleConfig[];
  scopes: ScopesConfig | null;
  partition_rules: PartitionRuleConfig[];
  /** The traffic the self-tuned rules' settings were chosen from (tuning.ts `tunedConfiguration`); absent: none. */
  tuned_from?: ObservedTraffic;
}

/** The partition of pull requests when no partition rules exist (docs/domain.md §1.5). */
export const DEFAULT_PARTITION = "__default__";

/** Defaults of `merge_queue` (docs/domain.md §1.3). */
export const DEFAULT_MERGE_QUEUE: MergeQueueConfig = {
  max_parallel_checks: 5,
  mode: "serial",
  reset_on_external_merge: "always",
  skip_intermediate_results: false,
  queued_label: "queued",
  checking_label: null,
  dequeued_label: "dequeued",
  status_comments: "all",
  queue_controls_comment: true,
};

function checkFingerprint(rule: QueueRuleConfig): string {
  return JSON.stringify([
    rule.merge_conditions,
    rule.queue_conditions,
    rule.branch_protection_injection_mode,
    rule.merge_method,
    rule.update_method,
    rule.queue_branch_prefix,
    rule.allow_inplace_checks,
    rule.allow_queue_branch_edit,
  ]);
}

/** Projects one queue rule (defaults already filled by the configuration module). */
export function projectQueueRule(rule: QueueRuleConfig): EngineQueueRule {
  const mergeMethod = rule.merge_method ?? null;
  const single =
    rule.merge_conditions.length === 0 ||
    JSON.stringify(rule.merge_conditions) === JSON.stringify(rule.queue_conditions);
  return {
    name: rule.name,
    rank: rule.priority,
    batchSize: { min: rule.batch_size.min, max: rule.batch_size.max },
    batchMaxWaitTime: rule.batch_max_wait_time,
    checksTimeout: rule.checks_timeout,
    maxChecksRetries: rule.max_checks_retries,
    batchMaxFailureResolutionAttempts: rule.batch_max_failure_resolution_attempts,
    mergeMethod,
    updateMethod: rule.update_method ?? (mergeMethod === "fast-forward" ? "rebase" : "merge"),
    queueBranchPrefix: rule.queue_branch_prefix,
    draftBotAccount: rule.draft_bot_account,
    mergeBotAccount: rule.merge_bot_account,
    updateBotAccount: rule.update_bot_account,
    allowInplaceChecks: rule.allow_inplace_checks,
    allowQueueBranchEdit: rule.allow_queue_branch_edit,
    riskAwareBatching: rule.risk_aware_batching ?? false,
    singleStepCi: single,
    checkFingerprint: checkFingerprint(rule),
    commitMessageFormat: rule.commit_message_format,
  };
}

/** Projects the configuration sections into the engine's {@link EngineConfig}. */
export function projectConfiguration(input: ConfigurationInput): EngineConfig {
  const mq = input.merge_queue;
  return {
    queueRules: input.queue_rules.map(projectQueueRule),
    maxParallelChecks: mq.max_parallel_checks,
    mode: mq.mode,
    resetOnExternalMerge: mq.reset_on_external_merge,
    skipIntermediateResults: mq.skip_intermediate_results && mq.mode !== "isolated",
    queuedLabel: mq.queued_label,
    checkingLabel: mq.checking_label,
    dequeuedLabel: mq.dequeued_label,
    statusComments: mq.status_comments,
    scopeCapacities: { ...(input.scopes?.capacities ?? {}) },
    defaultScopeCapacity: input.scopes?.default_capacity ?? null,
    partitions: input.partition_rules.map((p) => p.name),
    tunedFrom: input.tuned_from ?? null,
  };
}

/** The configuration of a repository without a configuration file: no queue rules. */
export function emptyEngineConfig(): EngineConfig {
  return projectConfiguration({
    queue_rules: [],
    merge_queue: DEFAULT_MERGE_QUEUE,
    priority_rules: [],
    scopes: null,
    partition_rules: [],
  });
}

/**
 * Whether checks run on the pull request itself rather than on a draft (docs/domain.md §3.4):
 * no speculation (max_parallel_checks 1), every rule checks one pull request per batch, the rule's
 * CI is single-step, no retries, and in-place checks are allowed.
 */
export function usesInPlaceChecks(config: EngineConfig, rule: EngineQueueRule): boolean {
  return (
    config.maxParallelChecks === 1 &&
    config.queueRules.every((r) => r.batchSize.max === 1) &&
    rule.singleStepCi &&
    rule.maxChecksRetries === 0 &&
    rule.allowInplaceChecks
  );
}
