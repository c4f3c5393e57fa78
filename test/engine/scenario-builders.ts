/**
 * Named builders for engine tests: the scenario clock (minute 0 and minutes after it), queue rules
 * and configurations, SHAs made from labels, queued pull requests, pause and unpause events.
 */
import { DEFAULT_MERGE_QUEUE, type ConfigurationInput, type QueuedPullInput } from "../../services/engine/index.js";
import { defaultQueueRule } from "../../services/simulation/index.js";
import type { MergeQueueConfig, QueueRuleConfig } from "../../services/config/model.js";

/** Monday 2026-01-05 09:00 UTC: minute 0 of every scenario. */
export const T0 = Date.UTC(2026, 0, 5, 9, 0);
/** Epoch ms of `m` minutes after T0. */
export const minutes = (m: number) => T0 + m * 60_000;

/** A queue rule with the configuration defaults, overridden by `over`. */
export function queueRule(over: Partial<QueueRuleConfig> = {}): QueueRuleConfig {
  return defaultQueueRule(over.name ?? "default", over);
}

/** A fixed batch size. */
export const batchOf = (n: number) => ({ min: n, max: n });

/** The configuration sections the engine reads. */
export function configuration(
  options: {
    rules?: QueueRuleConfig[];
    mergeQueue?: Partial<MergeQueueConfig>;
    partitions?: string[];
    capacities?: Record<string, number>;
  } = {},
): ConfigurationInput {
  return {
    queue_rules: options.rules ?? [queueRule()],
    merge_queue: { ...DEFAULT_MERGE_QUEUE, ...options.mergeQueue },
    priority_rules: [],
    scopes: options.capacities
      ? {
          source: { type: "manual" },
          barrier_files: null,
          merge_queue_scope: "merge-queue",
          capacities: options.capacities,
          default_capacity: null,
        }
      : null,
    partition_rules: (options.partitions ?? []).map((name) => ({ name, conditions: [], fallback_partition: false })),
  };
}

/** A 40-hex SHA made from a label ("base", "head-3"...). */
export function sha(label: string): string {
  let h = 0x811c9dc5;
  let out = "";
  for (let round = 0; round < 5; round++) {
    for (const ch of `${round}:${label}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    out += h.toString(16).padStart(8, "0");
  }
  return out;
}

/** What the runner resolved for pull request `number` (defaults: rule "default", medium priority, main). */
export function queuedPull(number: number, over: Partial<QueuedPullInput> = {}): QueuedPullInput {
  return {
    number,
    title: `Change ${number}`,
    url: `https://forge.example/acme/app/pull/${number}`,
    author: { id: 7, login: "ada" },
    labels: [],
    headSha: sha(`head-${number}`),
    baseRef: "main",
    baseSha: sha("base"),
    queueRule: "default",
    priority: 2000,
    priorityRuleName: null,
    allowChecksInterruption: false,
    scopes: [],
    ...over,
  };
}

/** A pause (with its reason) or an unpause. */
export const pauseEvent = (reason = "release freeze") => ({ type: "pause" as const, reason });
export const unpauseEvent = () => ({ type: "unpause" as const });
