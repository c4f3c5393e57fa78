/**
 * Which queue rules the self-tuning default applies to (docs/self-tuning.md), and what
 * GET /queues/configuration shows for them: a rule that sets no batch size, wait or parallelism is
 * self-tuned and shows the settings the queue runs with; setting any of the three (in the rule, in
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

  it("show the settings the queue runs with in /queues/configuration, and the static defaults before", async () => {
    const c = await load("queue_rules:\n  - name: a\n  - name: b\n    batch_size: 3\n");
    const running = {
      maxParallelChecks: 6,
      rules: {
        a: { batchSize: { min: 2, max: 4 }, batchMaxWaitTime: 600 },
        b: { batchSize: { min: 3, max: 3 }, batchMaxWaitTime: 0 },
      },
    };
    const [a, b] = queueRulesApiConfiguration(c, null, running);
    expect(a!.config).toMatchObject({
      batch_size: 4,
      batch_max_wait_time: 600,
      self_tuning: { batch_size: { min: 2, max: 4 }, batch_max_wait_time: 600, max_parallel_checks: 6 },
    });
    expect(b!.config.self_tuning).toBeUndefined();
    const [before] = queueRulesApiConfiguration(c);
    expect(before!.config.self_tuning).toEqual({
      batch_size: { min: 1, max: 1 },
      batch_max_wait_time: 30,
      max_parallel_checks: 5,
    });
  });
});
