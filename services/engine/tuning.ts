/**
 * The self-tuning default (docs/self-tuning.md): the batch size, batch wait and parallel checks a
 * queue rule that sets none of them runs with, chosen from the repository's observed traffic:
 * arrival rate λ, typical CI duration D and the share p of pull requests that fail. Pure: the
 * runner measures the traffic (services/runner/traffic-tuning.ts) and recomputes as it drifts.
 *
 * The rule (calibrated on `npm run bench:queue`'s scan, docs/benchmarks.md "The merge queue"),
 * with a = λ·D the arrivals per CI run:
 * - a < 1 (a quiet queue) or p > 0.3 (batches fail more often than they save: two-stage testing
 *   stops paying near p = 0.3, Dorfman, https://doi.org/10.1214/aoms/1177731363): no batches
 *   (batches of one, no wait), parallel checks for the arrivals of two CI runs, 2 to 6;
 * - otherwise batches of 2 up to ⌊a/3⌋ + 2, never above the two-stage optimum ⌈1/√p⌉ nor 8: a batch
 *   fills within a fraction of D, and larger ones put more innocents behind each failure; the wait
 *   for a batch to fill is D/6 while a ≤ 6, D/3 above (more traffic fills batches sooner, and the
 *   longer wait saves runs where latency has room); parallel checks: twice the batches one CI run
 *   brings at the mean batch size, plus two for the batches rechecked behind a failure, 2 to 6
 *   (more checks in flight made restarts behind failures cost more than they saved at λD = 8).
 */
import type { MergeQueueConfig } from "../config/index.js";
import type { ConfigurationInput } from "./config.js";
import type { ObservedTraffic } from "./traffic.js";

/**
 * Knobs of a queue rule: what the self-tuning default chooses, and what a simulation varies
 * (services/simulation/configurations.ts makes a configuration of them). `batchMaxWaitSeconds` in seconds.
 */
export interface QueueKnobs {
  batchSize: { min: number; max: number };
  batchMaxWaitSeconds: number;
  maxParallelChecks: number;
  maxChecksRetries?: number;
  /** The queue rule's `risk_aware_batching` (risk.ts); absent: the configuration's default. */
  riskAwareBatching?: boolean;
  mergeQueue?: Partial<MergeQueueConfig>;
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/**
 * The settings the self-tuning default chooses for `traffic` (see the module header for the rule).
 * `batchMaxWaitSeconds` in whole seconds. Inputs that are not finite or negative count as 0.
 */
export function tunedQueueSettings(traffic: ObservedTraffic): QueueKnobs {
  const finite = (x: number) => (Number.isFinite(x) && x > 0 ? x : 0);
  const lambda = finite(traffic.arrivalsPerHour);
  const d = finite(traffic.ciSeconds);
  const p = clamp(finite(traffic.failureRate), 0.001, 1);
  const a = (lambda * d) / 3600;
  if (a < 1 || p > 0.3) {
    return { batchSize: { min: 1, max: 1 }, batchMaxWaitSeconds: 0, maxParallelChecks: clamp(Math.ceil(2 * a), 2, 6) };
  }
  const min = 2;
  const max = clamp(Math.min(Math.ceil(1 / Math.sqrt(p)), Math.floor(a / 3) + 2), min, 8);
  const wait = Math.round(a <= 6 ? d / 6 : d / 3);
  const parallel = clamp(Math.ceil((2 * a) / ((min + max) / 2)) + 2, 2, 6);
  return { batchSize: { min, max }, batchMaxWaitSeconds: wait, maxParallelChecks: parallel };
}

/**
 * Counts of a window of a repository's log, as services/activity-log/observed-traffic.ts reads
 * them (that folder imports this type only: docs/architecture.md "Dependency rules").
 * Null `medianCiSeconds`: no concluded check to measure.
 */
export interface TrafficCounts {
  /** Pull requests queued in the window. */
  arrivals: number;
  /** Pull requests that merged, and that left as culprits. */
  merged: number;
  failed: number;
  /** Check attempts that concluded, and their median duration in seconds. */
  concludedChecks: number;
  medianCiSeconds: number | null;
  /** Window length in hours. */
  hours: number;
}

/** Fewest pull requests resolved (merged or culprits) in a window before its traffic is trusted. */
export const MIN_RESOLVED = 20;
/** Fewest concluded check attempts in a window before its CI duration is trusted. */
export const MIN_CHECKS = 5;

/**
 * The traffic a window measured, or null when it holds too little to trust (fewer than
 * {@link MIN_RESOLVED} resolved pull requests or {@link MIN_CHECKS} concluded checks): the rule
 * then keeps its static defaults (docs/self-tuning.md).
 */
export function observedTraffic(counts: TrafficCounts): ObservedTraffic | null {
  const resolved = counts.merged + counts.failed;
  if (resolved < MIN_RESOLVED || counts.concludedChecks < MIN_CHECKS || counts.medianCiSeconds === null) return null;
  if (!(counts.hours > 0)) return null;
  return {
    arrivalsPerHour: counts.arrivals / counts.hours,
    ciSeconds: counts.medianCiSeconds,
    failureRate: counts.failed / resolved,
  };
}

/**
 * The configuration with the settings of its self-tuned queue rules (`self_tuned`, set by the
 * configuration module when a rule sets no batch size, wait or parallelism) chosen for `traffic`;
 * `max_parallel_checks` is tuned too when any rule is, and `tuned_from` records `traffic` (the
 * engine keeps it with the settings, for the API: docs/self-tuning.md "Where it shows").
 * Unchanged when `traffic` is null or no rule is self-tuned.
 */
export function tunedConfiguration(input: ConfigurationInput, traffic: ObservedTraffic | null): ConfigurationInput {
  if (traffic === null || !input.queue_rules.some((r) => r.self_tuned)) return input;
  const knobs = tunedQueueSettings(traffic);
  return {
    ...input,
    queue_rules: input.queue_rules.map((r) =>
      r.self_tuned ? { ...r, batch_size: knobs.batchSize, batch_max_wait_time: knobs.batchMaxWaitSeconds } : r,
    ),
    merge_queue: { ...input.merge_queue, max_parallel_checks: knobs.maxParallelChecks },
    tuned_from: traffic,
  };
}
