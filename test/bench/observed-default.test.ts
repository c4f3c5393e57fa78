/**
 * The queue benchmark's self-tuned default is chosen as production chooses it
 * (docs/benchmarks.md "Rules and targets"): from the events a window of traffic logged, stored in a
 * real ClickHouse engine (chdb) through production's event rows and sink, and read back by the
 * runner's reader, never from the traffic's true parameters. A scripted case whose observed
 * traffic differs from what the benchmark would call the truth (λ = 8/h, p = 0.05): the default
 * follows the observation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClickHouseClient } from "../../services/activity-log/index.js";
import { tunedQueueSettings } from "../../services/engine/index.js";
import { constantMinutes, queueConfiguration, Simulation } from "../../services/simulation/index.js";
import {
  clickHouseTuning,
  FIRST_READ_HOURS,
  observedDefaults,
  STATIC_DEFAULTS,
  WINDOWS_START,
  type ObservedDefault,
  type WindowRunner,
} from "../../bench/queue/observed-default.js";
import type { LoggedEvent } from "../../bench/queue/traffic-window.js";
import { embeddedClickHouse } from "../support/clickhouse.js";

const MIN = 60_000;
const H = 60 * MIN;

/**
 * The scripted windows: 30 pull requests 6 minutes apart from the window's start, CI of 30
 * minutes, under the window's settings; on the first day every third breaks the build (10), in
 * the week every sixth (5). Each window drains long before it ends.
 */
const scripted: WindowRunner = async (jobs) =>
  jobs.map((job) => {
    const logged: LoggedEvent[] = [];
    const sim = new Simulation({
      seed: job.seed,
      config: queueConfiguration(job.knobs),
      ciDuration: constantMinutes(30),
      ciSlots: 10,
      flakeRate: 0,
      startAt: job.fromMs,
      observe: (s) => {
        for (const e of s.effects) if (e.kind === "log") logged.push({ at: s.now, log: e });
      },
    });
    const firstDay = job.toMs - job.fromMs === FIRST_READ_HOURS * H;
    for (let i = 1; i <= 30; i++) {
      sim.runUntil(job.fromMs + (i - 1) * 6 * MIN);
      sim.arrive({ bad: i % (firstDay ? 3 : 6) === 0 });
    }
    sim.runUntil(job.toMs - 1);
    return logged;
  });

let ch: ClickHouseClient;
let result: ObservedDefault;
const runs: { knobs: unknown; fromMs: number }[] = [];

beforeAll(async () => {
  ch = await embeddedClickHouse();
  const { store, read } = clickHouseTuning(ch);
  const recording: WindowRunner = (jobs) => {
    runs.push(...jobs.map((j) => ({ knobs: j.knobs, fromMs: j.fromMs })));
    return scripted(jobs);
  };
  [result] = await observedDefaults([{ lambda: 8, seed: 1, repository: "bench/scripted" }], recording, store, read);
}, 120_000);
afterAll(() => ch?.close());

describe("the benchmark's self-tuned default, chosen from an observed window", () => {
  it("runs the first day on the static defaults and the week on what the first day chose", () => {
    // Day: 30 arrivals in 24 h (1.25/h), 10 of 30 resolved failed: a quiet queue, no batches, ⌈2a⌉ = 2 checks.
    const quiet = { batchSize: { min: 1, max: 1 }, batchMaxWaitSeconds: 0, maxParallelChecks: 2 };
    expect(runs).toEqual([
      { knobs: STATIC_DEFAULTS, fromMs: WINDOWS_START },
      { knobs: quiet, fromMs: WINDOWS_START + 24 * H },
    ]);
    expect(result.firstKnobs).toEqual(quiet);
  });

  it("estimates the week's traffic from its stored events, as the runner's reader counts them", () => {
    expect(result.counts).toMatchObject({ arrivals: 30, merged: 25, failed: 5, medianCiSeconds: 1800, hours: 168 });
    expect(result.counts.concludedChecks).toBeGreaterThanOrEqual(30);
    expect(result.estimate).toEqual({ arrivalsPerHour: 30 / 168, ciSeconds: 1800, failureRate: 5 / 30 });
  });

  it("runs the settings the estimate chooses, not those of the true parameters", () => {
    expect(result.knobs).toEqual(tunedQueueSettings(result.estimate!));
    expect(result.knobs).toEqual({ batchSize: { min: 1, max: 1 }, batchMaxWaitSeconds: 0, maxParallelChecks: 2 });
    const truth = tunedQueueSettings({ arrivalsPerHour: 8, ciSeconds: 1800, failureRate: 0.05 });
    expect(truth).toEqual({ batchSize: { min: 2, max: 3 }, batchMaxWaitSeconds: 300, maxParallelChecks: 6 });
    expect(result.knobs).not.toEqual(truth);
  });
});
