/**
 * A what-if of a self-tuned queue rule (docs/what-if.md "Self-tuned rules"): the replay runs the
 * rule with the settings the self-tuning default chooses from the window's own traffic, as the
 * queue would have, not with the static defaults (batches of one) it keeps only while it has too
 * little traffic.
 */
import { describe, expect, it } from "vitest";
import type { RecordedTraffic } from "../../services/activity-log/index.js";
import { loadConfiguration, type Configuration } from "../../services/config/index.js";
import type { ConfigurationInput } from "../../services/engine/index.js";
import { simulateTraffic } from "../../services/simulation/index.js";
import { configurationForWindow, windowTraffic } from "../../services/simulator/window-tuning.js";

const HOUR = 3_600_000;
const CI_MS = 30 * 60_000;

/** 16 pull requests an hour for 5 hours, one in twenty broken, a 30-minute CI. */
function busyWindow(): RecordedTraffic {
  const arrivals = Array.from({ length: 80 }, (_, i) => ({
    number: i + 1,
    at: Math.round((i * HOUR) / 16),
    bad: i % 20 === 7,
    withdrawal: null,
  }));
  const observed = {
    merges: 76,
    timeInQueueP50Ms: null,
    timeInQueueP95Ms: null,
    ciRuns: 60,
    ciMs: 60 * CI_MS,
    batches: 30,
    bisections: 4,
    dequeuesByCode: {},
    stillQueued: 0,
    retries: 0,
    ignoredFailures: 0,
  };
  const ci = Array.from({ length: 40 }, () => CI_MS);
  return {
    branch: "main",
    fromMs: 0,
    toMs: 5 * HOUR,
    arrivals,
    outsidePushes: [],
    ciDurationsMs: ci,
    mergeMs: 0,
    draftMs: 0,
    flakeRate: 0,
    ignoredFailures: 0,
    retries: 0,
    observed,
  };
}

async function engineInput(text: string): Promise<ConfigurationInput> {
  const r = await loadConfiguration(text);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  const c: Configuration = r.config;
  return {
    queue_rules: c.queue_rules,
    merge_queue: c.merge_queue,
    priority_rules: c.priority_rules,
    scopes: c.scopes,
    partition_rules: c.partition_rules,
  };
}

const replay = (t: RecordedTraffic, config: ConfigurationInput) =>
  simulateTraffic(
    {
      arrivals: t.arrivals,
      outsidePushes: [],
      ciDurationsMs: t.ciDurationsMs,
      mergeMs: 0,
      draftMs: 0,
      flakeRate: 0,
      seed: 26,
    },
    config,
  );

describe("a what-if of a self-tuned rule", () => {
  it("reads the window's traffic as the self-tuning default does", () => {
    expect(windowTraffic(busyWindow())).toEqual({
      arrivalsPerHour: 16,
      ciSeconds: 1800,
      failureRate: 4 / 80,
      measuredAt: 5 * HOUR,
    });
  });

  it("replays the settings that traffic chooses, which batch, not the static defaults", async () => {
    const t = busyWindow();
    const selfTuned = await engineInput("queue_rules:\n  - name: default\n");
    const tuned = configurationForWindow(selfTuned, t);
    expect(tuned.queue_rules[0]).toMatchObject({ batch_size: { min: 2, max: 4 }, batch_max_wait_time: 600 });
    expect(tuned.merge_queue.max_parallel_checks).toBe(6);
    // The same as a configuration that sets those settings by hand.
    const explicit = await engineInput(
      "merge_queue:\n  max_parallel_checks: 6\nqueue_rules:\n  - name: default\n    batch_size: {min: 2, max: 4}\n    batch_max_wait_time: 10 min\n",
    );
    expect(configurationForWindow(explicit, t)).toBe(explicit);
    const asTuned = replay(t, tuned);
    expect(asTuned).toEqual(replay(t, explicit));
    // Before this, the what-if replayed batches of one: a CI run for every pull request at least.
    const staticDefaults = replay(t, selfTuned);
    expect(staticDefaults.ciRuns / staticDefaults.merges).toBeGreaterThanOrEqual(1);
    expect(asTuned.ciRuns / asTuned.merges).toBeLessThan(0.8);
  });

  it("keeps the static defaults when the window holds too little traffic, as the queue does", async () => {
    const t = busyWindow();
    const quiet = { ...t, arrivals: t.arrivals.slice(0, 10), observed: { ...t.observed, merges: 9 } };
    expect(windowTraffic(quiet)).toBeNull();
    const selfTuned = await engineInput("queue_rules:\n  - name: default\n");
    expect(configurationForWindow(selfTuned, quiet)).toBe(selfTuned);
  });
});
