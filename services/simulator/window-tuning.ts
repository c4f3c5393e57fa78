/**
 * The self-tuning default inside a what-if (docs/what-if.md "Self-tuned rules"): a queue rule
 * that sets no batch size or wait runs, in the queue, with settings chosen from the repository's
 * observed traffic (docs/self-tuning.md). A traffic simulation of a window must run it with the settings that
 * traffic chooses, not with the static defaults the queue only keeps while it has too little
 * traffic: the counts the tuner reads (arrivals per hour of the window, median CI duration, share
 * of resolved pull requests that failed) are taken from the window itself.
 */
import type { RecordedTraffic } from "../activity-log/index.js";
import { observedTraffic, tunedConfiguration, type ConfigurationInput, type ObservedTraffic } from "../engine/index.js";
import { nearestRank } from "../simulation/index.js";

/**
 * The traffic the self-tuning default reads from `t` (engine/tuning.ts `observedTraffic`): null
 * when the window holds too little to trust (the rule then keeps its static defaults, as the
 * queue does). `measuredAt` is the window's end (epoch ms, UTC).
 */
export function windowTraffic(t: RecordedTraffic): ObservedTraffic | null {
  const median = nearestRank(
    [...t.ciDurationsMs].sort((a, b) => a - b),
    0.5,
  );
  const traffic = observedTraffic({
    arrivals: t.arrivals.length,
    merged: t.observed.merges,
    failed: t.arrivals.filter((a) => a.bad).length,
    concludedChecks: t.ciDurationsMs.length,
    medianCiSeconds: median === null ? null : median / 1000,
    hours: (t.toMs - t.fromMs) / 3_600_000,
  });
  return traffic && { ...traffic, measuredAt: t.toMs };
}

/**
 * `config` as the queue would run it on the traffic of `t`: its self-tuned rules (if any) with
 * the settings {@link windowTraffic} chooses; unchanged when no rule is self-tuned or the window
 * holds too little traffic.
 */
export function configurationForWindow(config: ConfigurationInput, t: RecordedTraffic): ConfigurationInput {
  return tunedConfiguration(config, windowTraffic(t));
}
