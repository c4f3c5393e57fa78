/**
 * A queue rule's API `config` as the queue runs it (docs/configuration.md "API output of queue
 * rules"): `checks_timeout: auto` as computed, and for a self-tuned rule the settings the engine
 * runs with and the traffic they were chosen from (docs/self-tuning.md "Where it shows"), the
 * same on `/queues`, `/queues/configuration` and the queued pull request.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import { autoChecksTimeoutMs, type EngineState } from "../engine/index.js";
import { queueRuleApiConfig, type Configuration, type RunningSettings } from "../config/index.js";

/** `checks_timeout: auto` as the engine computes it from `state`, in whole seconds; null until known. */
export function autoSeconds(state: EngineState): number | null {
  const ms = autoChecksTimeoutMs(state);
  return ms === null ? null : Math.round(ms / 1000);
}

/** The settings `state`'s queue runs with, and the traffic its self-tuned rules were chosen from (docs/self-tuning.md). */
export function runningSettings(state: EngineState): RunningSettings {
  return {
    maxParallelChecks: state.config.maxParallelChecks,
    rules: Object.fromEntries(
      state.config.queueRules.map((r) => [r.name, { batchSize: r.batchSize, batchMaxWaitTime: r.batchMaxWaitTime }]),
    ),
    tunedFrom: state.config.tunedFrom ?? null,
  };
}

/**
 * The API `config` of queue rule `name` of `config` as `state`'s queue runs it: the same on every
 * route that shows a queue rule (docs/self-tuning.md "Where it shows"); {} for a rule the
 * configuration no longer has.
 */
export function ruleApiConfig(config: Configuration | null, name: string, state: EngineState): JsonObject {
  const rule = config?.queue_rules.find((r) => r.name === name);
  if (!rule) return {};
  const api = queueRuleApiConfig(
    rule,
    autoSeconds(state),
    runningSettings(state),
    config!.merge_queue.max_parallel_checks,
  );
  return api as unknown as JsonObject;
}
