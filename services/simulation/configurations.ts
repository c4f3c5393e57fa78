/**
 * Configurations for what-if runs without a configuration file: one queue rule with the defaults
 * of docs/domain.md §1.2 and the `merge_queue` defaults of §1.3, overridden by the few knobs a
 * simulation varies. The result is the same ConfigurationInput the configuration module produces.
 */
import type { QueueRuleConfig } from "../config/index.js";
import { DEFAULT_MERGE_QUEUE, type ConfigurationInput, type QueueKnobs } from "../engine/index.js";

/** A queue rule named `name` with the configuration defaults (batch of 1, no wait, no timeout). */
export function defaultQueueRule(name = "default", over: Partial<QueueRuleConfig> = {}): QueueRuleConfig {
  return {
    name,
    queue_conditions: [],
    merge_conditions: [],
    branch_protection_injection_mode: "queue",
    batch_size: { min: 1, max: 1 },
    batch_max_wait_time: 0,
    checks_timeout: null,
    max_checks_retries: 0,
    draft_bot_account: null,
    merge_bot_account: null,
    update_bot_account: null,
    queue_branch_prefix: "yardmaster/merge-queue/",
    allow_queue_branch_edit: false,
    batch_max_failure_resolution_attempts: null,
    merge_method: "merge",
    update_method: null,
    commit_message_template: null,
    commit_message_format: null,
    allow_inplace_checks: true,
    autosquash: false,
    priority: 0,
    ...over,
  };
}

/** A configuration with one queue rule set by `knobs`. */
export function queueConfiguration(knobs: QueueKnobs): ConfigurationInput {
  return {
    queue_rules: [
      defaultQueueRule("default", {
        batch_size: knobs.batchSize,
        batch_max_wait_time: knobs.batchMaxWaitSeconds,
        max_checks_retries: knobs.maxChecksRetries ?? 0,
        ...(knobs.riskAwareBatching !== undefined ? { risk_aware_batching: knobs.riskAwareBatching } : {}),
      }),
    ],
    merge_queue: { ...DEFAULT_MERGE_QUEUE, max_parallel_checks: knobs.maxParallelChecks, ...knobs.mergeQueue },
    priority_rules: [],
    scopes: null,
    partition_rules: [],
  };
}
