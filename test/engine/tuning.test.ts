/**
 * The self-tuning default's choice (services/engine/tuning.ts, docs/self-tuning.md): settings follow
 * the observed traffic, stay within their bounds, and bad measurements fall back to a quiet queue;
 * a newer read that chooses the same settings is recorded without touching the queue.
 */
import { describe, expect, it } from "vitest";
import { tunedConfiguration, tunedQueueSettings } from "../../services/engine/index.js";
import { batchOf, configuration, QueueHarness, queueRule } from "./fixtures.js";

const at = (arrivalsPerHour: number, failureRate = 0.05, ciSeconds = 1800) =>
  tunedQueueSettings({ arrivalsPerHour, ciSeconds, failureRate });

describe("the self-tuning default", () => {
  it("does not batch a quiet queue: a batch would mostly wait to fill", () => {
    expect(at(1)).toEqual({ batchSize: { min: 1, max: 1 }, batchMaxWaitSeconds: 0, maxParallelChecks: 2 });
  });

  it("batches more, and waits longer, as traffic grows, within the two-stage testing optimum", () => {
    expect(at(8)).toEqual({ batchSize: { min: 2, max: 3 }, batchMaxWaitSeconds: 300, maxParallelChecks: 6 });
    expect(at(16)).toEqual({ batchSize: { min: 2, max: 4 }, batchMaxWaitSeconds: 600, maxParallelChecks: 6 });
    expect(at(500).batchSize.max).toBe(5); // ⌈1/√0.05⌉
  });

  it("stops batching when most batches would fail", () => {
    expect(at(16, 0.4).batchSize).toEqual({ min: 1, max: 1 });
  });

  it("scales the wait with the CI duration", () => {
    expect(at(16, 0.05, 600).batchMaxWaitSeconds).toBe(100); // a = 16 · 600 / 3600 < 6: D/6
  });

  it("treats measurements that are not numbers as no traffic", () => {
    expect(at(Number.NaN)).toEqual(at(0));
    expect(at(-3).batchSize).toEqual({ min: 1, max: 1 });
  });
});

describe("a newer read of the traffic that chooses the same settings", () => {
  it("is recorded in the state and changes nothing in the queue", () => {
    const input = configuration({
      rules: [queueRule({ batch_size: batchOf(1), batch_max_wait_time: 30, self_tuned: true })],
    });
    const read = (arrivalsPerHour: number, measuredAt: number) => ({
      arrivalsPerHour,
      ciSeconds: 1800,
      failureRate: 0.05,
      measuredAt,
    });
    const h = new QueueHarness(tunedConfiguration(input, read(16, 0)));
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8]) h.queue(n);
    h.at(1).queue(9); // waits up to 10 minutes for a second one
    const before = h.picture();
    expect(before.at(-1)).toMatch(/filling \[9\] of 2/);
    const later = read(16.5, 15 * 60_000);
    expect(h.at(2).send({ type: "configuration_changed", config: tunedConfiguration(input, later) })).toEqual([]);
    expect(h.picture()).toEqual(before);
    expect(h.state.config.tunedFrom).toEqual(later);
  });
});
