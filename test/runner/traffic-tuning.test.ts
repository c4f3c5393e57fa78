/**
 * The runner's side of the self-tuning default (services/runner/traffic-tuning.ts,
 * docs/self-tuning.md): traffic read at most every 15 minutes, a failed read keeping the last
 * traffic, and a round told to apply new settings only when the traffic chooses settings the engine
 * does not run with yet or comes from a newer read (kept in the engine state for the API), for
 * self-tuned rules only.
 */
import pino from "pino";
import { describe, expect, it } from "vitest";
import { createState, type ConfigurationInput, type TrafficCounts } from "../../services/engine/index.js";
import { defaultQueueRule, queueConfiguration } from "../../services/simulation/index.js";
import { retuned, TrafficTuning, TUNING_REFRESH_MS } from "../../services/runner/index.js";

const busy: TrafficCounts = {
  arrivals: 16 * 168,
  merged: 2500,
  failed: 130,
  concludedChecks: 900,
  medianCiSeconds: 1800,
  hours: 168,
};

function input(selfTuned: boolean): ConfigurationInput {
  const base = queueConfiguration({ batchSize: { min: 1, max: 1 }, batchMaxWaitSeconds: 30, maxParallelChecks: 5 });
  return { ...base, queue_rules: [defaultQueueRule("default", { batch_max_wait_time: 30, self_tuned: selfTuned })] };
}

describe("the traffic of the self-tuning default", () => {
  it("is read in the background, again only after 15 minutes, and a failed read keeps the last traffic", async () => {
    let now = 0;
    let reads = 0;
    let fail = false;
    const tuning = new TrafficTuning(
      async () => {
        reads++;
        if (fail) throw new Error("ClickHouse is down");
        return busy;
      },
      () => now,
      pino({ level: "silent" }),
    );
    expect(tuning.traffic("acme/app")).toBeNull(); // the first read runs in the background
    await tuning.settled();
    const first = tuning.traffic("acme/app");
    expect(first).toMatchObject({ arrivalsPerHour: 16, ciSeconds: 1800, measuredAt: 0 });
    now += TUNING_REFRESH_MS - 1;
    tuning.traffic("acme/app");
    await tuning.settled();
    expect(reads).toBe(1);
    now += 1;
    fail = true;
    expect(tuning.traffic("acme/app")).toEqual(first);
    await tuning.settled();
    expect(tuning.traffic("acme/app")).toEqual(first);
    expect(reads).toBe(2);
  });
});

describe("a round's retuning", () => {
  const traffic = { arrivalsPerHour: 16, ciSeconds: 1800, failureRate: 0.05 };

  it("applies the settings the traffic chooses to a self-tuned rule, once", () => {
    const state = createState("acme/app", input(true));
    const next = retuned(state, input(true), traffic);
    expect(next?.queue_rules[0]).toMatchObject({ batch_size: { min: 2, max: 4 }, batch_max_wait_time: 600 });
    expect(next?.merge_queue.max_parallel_checks).toBe(6);
    expect(retuned(createState("acme/app", next!), input(true), traffic)).toBeNull();
  });

  it("keeps the traffic the settings came from in the engine state, and records a newer read", () => {
    const read = { ...traffic, measuredAt: Date.UTC(2026, 10, 26, 17) };
    const state = createState("acme/app", retuned(createState("acme/app", input(true)), input(true), read)!);
    expect(state.config.tunedFrom).toEqual(read);
    expect(retuned(state, input(true), read)).toBeNull();
    // 15 minutes later the traffic chooses the same settings: the newer read is recorded all the same.
    const later = { ...traffic, arrivalsPerHour: 16.5, measuredAt: read.measuredAt + TUNING_REFRESH_MS };
    const next = retuned(state, input(true), later);
    expect(next?.queue_rules[0]).toMatchObject({ batch_size: { min: 2, max: 4 }, batch_max_wait_time: 600 });
    expect(createState("acme/app", next!).config.tunedFrom).toEqual(later);
  });

  it("leaves rules that set their own settings, and queues without enough traffic, alone", () => {
    expect(retuned(createState("acme/app", input(false)), input(false), traffic)).toBeNull();
    expect(retuned(createState("acme/app", input(true)), input(true), null)).toBeNull();
  });
});
