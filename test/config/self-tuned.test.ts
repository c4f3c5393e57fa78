/**
 * Which queue rules the self-tuning default applies to (docs/self-tuning.md), and what
 * GET /queues/configuration shows for them: a rule that sets no batch size, wait or parallelism is
 * self-tuned and shows the settings the queue runs with, the configured ones and the traffic they
 * were chosen from; setting any of the three (in the rule, in
 * `defaults`, or `merge_queue.max_parallel_checks`) turns it off.
 */
import { describe, expect, it } from "vitest";
import { loadConfiguration, queueRulesApiConfiguration, type Configuration } from "../../services/config/index.js";

async function load(text: string): Promise<Configuration> {
  const r = await loadConfiguration(text);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.config;
}

const tunedOf = (c: Configuration) => c.queue_rules.map((r) => [r.name, r.self_tuned === true]);

describe("self-tuned queue rules", () => {
  it("are the rules that set none of batch size, wait and parallelism", async () => {
    const c = await load(
      "queue_rules:\n  - name: a\n  - name: b\n    batch_size: 3\n  - name: c\n    batch_max_wait_time: 1 min\n",
    );
    expect(tunedOf(c)).toEqual([
      ["a", true],
      ["b", false],
      ["c", false],
    ]);
  });

  it("are none when the parallelism or the defaults set a batch setting", async () => {
    expect(tunedOf(await load("merge_queue:\n  max_parallel_checks: 3\nqueue_rules:\n  - name: a\n"))).toEqual([
      ["a", false],
    ]);
    const viaDefaults = "defaults:\n  queue_rule:\n    batch_size: 2\nqueue_rules:\n  - name: a\n";
    expect(tunedOf(await load(viaDefaults))).toEqual([["a", false]]);
  });

  it("show the settings the queue runs with, the configured ones and the traffic they came from", async () => {
    const c = await load("queue_rules:\n  - name: a\n  - name: b\n    batch_size: 3\n");
    const measuredAt = Date.UTC(2026, 10, 26, 17, 0);
    const running = {
      maxParallelChecks: 6,
      rules: {
        a: { batchSize: { min: 2, max: 4 }, batchMaxWaitTime: 600 },
        b: { batchSize: { min: 3, max: 3 }, batchMaxWaitTime: 0 },
      },
      tunedFrom: { arrivalsPerHour: 16, ciSeconds: 1800, failureRate: 0.05, measuredAt },
    };
    const [a, b] = queueRulesApiConfiguration(c, null, running);
    expect(a!.config).toMatchObject({ batch_size: 4, batch_size_min: 2, batch_size_max: 4, batch_max_wait_time: 600 });
    expect(a!.config.self_tuning).toEqual({
      batch_size: { min: 2, max: 4 },
      batch_max_wait_time: 600,
      max_parallel_checks: 6,
      configured: { batch_size: { min: 1, max: 1 }, batch_max_wait_time: 30, max_parallel_checks: 5 },
      observed: {
        arrivals_per_hour: 16,
        ci_duration: 1800,
        failure_rate: 0.05,
        computed_at: "2026-11-26T17:00:00.000Z",
      },
    });
    expect(b!.config.self_tuning).toBeUndefined();
  });

  it("show the static defaults, and no observed traffic, before the queue runs or has enough traffic", async () => {
    const c = await load("queue_rules:\n  - name: a\n");
    const statics = { batch_size: { min: 1, max: 1 }, batch_max_wait_time: 30, max_parallel_checks: 5 };
    const [before] = queueRulesApiConfiguration(c);
    expect(before!.config.self_tuning).toEqual({ ...statics, configured: statics, observed: null });
    const idle = { maxParallelChecks: 5, rules: { a: { batchSize: { min: 1, max: 1 }, batchMaxWaitTime: 30 } } };
    const [quiet] = queueRulesApiConfiguration(c, null, { ...idle, tunedFrom: null });
    expect(quiet!.config.self_tuning).toEqual({ ...statics, configured: statics, observed: null });
  });
});
