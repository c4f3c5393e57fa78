/**
 * The queue rule option `risk_aware_batching` (docs/configuration.md, docs/merge-queue.md
 * "Risk-aware batching"): a boolean, off unless written, inherited from `defaults.queue_rule`, and
 * carried to the engine.
 */
import { describe, expect, it } from "vitest";
import { loadConfiguration, type Configuration } from "../../services/config/index.js";
import { projectQueueRule } from "../../services/engine/config.js";

const yaml = (...lines: string[]) => `${lines.join("\n")}\n`;

async function rules(text: string): Promise<Configuration["queue_rules"]> {
  const r = await loadConfiguration(text);
  if (!r.ok) throw new Error(`expected a valid configuration, got ${JSON.stringify(r.errors)}`);
  return r.config.queue_rules;
}

describe("risk_aware_batching", () => {
  it("is off unless written, and reaches the engine when set, also from defaults.queue_rule", async () => {
    const [plain, own, inherited] = await rules(
      yaml(
        "defaults:",
        "  queue_rule:",
        "    risk_aware_batching: true",
        "queue_rules:",
        "  - name: plain",
        "    risk_aware_batching: false",
        "  - name: own",
        "    risk_aware_batching: true",
        "  - name: inherited",
      ),
    );
    expect([plain, own, inherited].map((r) => projectQueueRule(r!).riskAwareBatching)).toEqual([false, true, true]);
    const [unset] = await rules(yaml("queue_rules:", "  - name: default"));
    expect(unset!.risk_aware_batching).toBeUndefined();
    expect(projectQueueRule(unset!).riskAwareBatching).toBe(false);
  });

  it("refuses a value that is not a boolean, naming the key", async () => {
    const r = await loadConfiguration(yaml("queue_rules:", "  - name: default", "    risk_aware_batching: sometimes"));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => [e.path.join("."), e.line])).toEqual([["queue_rules.0.risk_aware_batching", 3]]);
    expect(r.errors[0]!.message).toBe('expected true or false, got the string "sometimes"');
  });
});
