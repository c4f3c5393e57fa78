/**
 * The runner's verdict on a batch's check (services/engine/runner/check-evaluation.ts): merge
 * conditions evaluated for each member, and, when they are false only because of a closed
 * schedule, when they hold (`scheduleOpensAt`) and which members the schedule blocks
 * (`scheduleBlocked`: the batch gives way to the others, docs/merge-queue.md rule 5). The
 * hosting platform is a test double answering the two reads the evaluation makes.
 */
import { describe, expect, it } from "vitest";
import type { ForgePort, PullRequestSnapshot } from "../../../services/forge/types.js";
import { ProtectionCache } from "../../../services/engine/runner/evaluation.js";
import { evaluateCheck } from "../../../services/engine/runner/check-evaluation.js";
import { loadConfiguration, type Configuration } from "../../../services/simulator/config/index.js";
import { checkRun, labels, pullRequest } from "../../simulator/config/builders.js";
import { batchOf, configuration, QueueHarness, queueRule } from "../fixtures.js";

/** Dependency updates (label `deps`) merge on weekday mornings (UTC); everything else at any time. */
const RULES = [
  "queue_rules:", "  - name: default", "    merge_conditions:", "      - check-success=test", "      - or:",
  "          - label!=deps", "          - schedule=Mon-Fri 09:00-11:00", "",
].join("\n");
const SATURDAY = new Date("2026-03-21T12:00:00Z");
const MONDAY_NINE = Date.parse("2026-03-23T09:00:00Z");

async function config(): Promise<Configuration> {
  const r = await loadConfiguration(RULES);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.config;
}

/** A running check of the batch [#1, #2] (draft #101); `#1` labelled as given, CI of the draft as given. */
async function verdict(firstLabels: string[], ci: "success" | "failure") {
  const h = new QueueHarness(configuration({ rules: [queueRule({ batch_size: batchOf(2), batch_max_wait_time: 600 })] }));
  h.queue(1);
  h.queue(2);
  h.created("Batch 1", 101);
  const check = h.batch("Batch 1").car.check!;
  const snapshots = new Map<number, PullRequestSnapshot>([
    [1, pullRequest({ number: 1, labels: labels(...firstLabels) })],
    [2, pullRequest({ number: 2 })],
    [101, pullRequest({ number: 101, headSha: check.headSha!, checks: [checkRun("test", ci)] })],
  ]);
  const forge = {
    getPullRequest: async (_repo: string, n: number) => snapshots.get(n)!,
    getBranchProtection: async () => ({ requiredChecks: [], requiredApprovals: 0, requireConversationResolution: false }),
  } as unknown as ForgePort;
  const deps = { forge, repository: "acme/app", config: await config(), protections: new ProtectionCache(forge, "acme/app"), now: SATURDAY };
  return evaluateCheck(deps, h.state, check.id);
}

describe("a check's verdict with a schedule in the merge conditions", () => {
  it("names the members the closed schedule blocks and when it opens for them; the others could merge", async () => {
    const result = await verdict(["deps"], "success");
    expect(result).toMatchObject({ type: "check_results", conditions: false, scheduleOpensAt: MONDAY_NINE, scheduleBlocked: { "1": MONDAY_NINE } });
  });

  it("is true when the schedule binds no member", async () => {
    const result = await verdict([], "success");
    expect(result).toMatchObject({ conditions: true, scheduleOpensAt: null, scheduleBlocked: null });
  });

  it("is a plain failure when something else fails, even with a member waiting for its schedule", async () => {
    const result = await verdict(["deps"], "failure");
    expect(result).toMatchObject({ conditions: false, scheduleOpensAt: null, scheduleBlocked: null });
  });
});
