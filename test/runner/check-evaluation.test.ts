/**
 * The runner's verdict on a batch's check (services/runner/check-evaluation.ts): merge
 * conditions evaluated for each member, and, when they are false only because of a closed
 * schedule, when they hold (`scheduleOpensAt`) and which members the schedule blocks
 * (`scheduleBlocked`: the batch gives way to the others, docs/merge-queue.md rule 5); members an
 * active scheduled freeze holds count as blocked until it ends (docs/scheduled-freeze.md), also
 * when the check would pass on failures of quarantined tests only. The hosting platform is a test
 * double answering the two reads the evaluation makes; CI Insights' answer is scripted.
 */
import { describe, expect, it } from "vitest";
import type { ForgePort, PullRequestSnapshot } from "../../services/forge/types.js";
import { ProtectionCache } from "../../services/runner/protection-cache.js";
import { evaluateCheck } from "../../services/runner/check-evaluation.js";
import type { TestResultsReader } from "../../services/runner/test-facts.js";
import { compileFreeze, type CompiledFreeze } from "../../services/config/index.js";
import { loadConfiguration, type Configuration } from "../../services/config/index.js";
import { checkRun, labels, pullRequest } from "../config/builders.js";
import { batchOf, configuration, QueueHarness, queueRule } from "../engine/fixtures.js";

/** Dependency updates (label `deps`) merge on weekday mornings (UTC); everything else at any time. */
const RULES = [
  "queue_rules:",
  "  - name: default",
  "    merge_conditions:",
  "      - check-success=test",
  "      - or:",
  "          - label!=deps",
  "          - schedule=Mon-Fri 09:00-11:00",
  "",
].join("\n");
const SATURDAY = new Date("2026-03-21T12:00:00Z");
const MONDAY_NINE = Date.parse("2026-03-23T09:00:00Z");

async function config(): Promise<Configuration> {
  const r = await loadConfiguration(RULES);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.config;
}

/** A running check of the batch [#1, #2] (draft #101); `#1` labelled as given, CI of the draft as given. */
async function verdict(
  firstLabels: string[],
  ci: "success" | "failure",
  freezes: CompiledFreeze[] = [],
  passed: "no" | "passed" | "passed and held" = "no",
  testResults: TestResultsReader | null = null,
) {
  const h = new QueueHarness(
    configuration({ rules: [queueRule({ batch_size: batchOf(2), batch_max_wait_time: 600 })] }),
  );
  h.queue(1);
  h.queue(2);
  h.created("Batch 1", 101);
  const check = h.batch("Batch 1").batch.check!;
  const snapshots = new Map<number, PullRequestSnapshot>([
    [1, pullRequest({ number: 1, labels: labels(...firstLabels) })],
    [2, pullRequest({ number: 2 })],
    [101, pullRequest({ number: 101, headSha: check.headSha!, checks: [checkRun("test", ci)] })],
  ]);
  const forge = {
    getPullRequest: async (_repo: string, n: number) => snapshots.get(n)!,
    // A draft's checks are read as its commit's (the draft's snapshot is not read).
    getCommitChecks: async (_repo: string, sha: string) => (sha === check.headSha ? snapshots.get(101)!.checks : []),
    getBranchProtection: async () => ({
      requiredChecks: [],
      requiredApprovals: 0,
      requireConversationResolution: false,
    }),
  } as unknown as ForgePort;
  const deps = {
    forge,
    repository: "acme/app",
    config: await config(),
    protections: new ProtectionCache(forge, "acme/app"),
    now: SATURDAY,
    freezes,
    testResults,
  };
  if (passed !== "no") check.phase = "passed";
  if (passed === "passed and held") check.scheduleHeldUntil = MONDAY_NINE;
  return evaluateCheck(deps, h.state, check.id);
}

describe("a check's verdict with a schedule in the merge conditions", () => {
  it("names the members the closed schedule blocks and when it opens for them; the others could merge", async () => {
    const result = await verdict(["deps"], "success");
    expect(result).toMatchObject({
      type: "check_results",
      conditions: false,
      scheduleOpensAt: MONDAY_NINE,
      scheduleBlocked: { "1": MONDAY_NINE },
    });
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

const HOUR = 3_600_000;
/** A freeze around SATURDAY (from an hour before to `endsIn` after; null = open-ended). */
function freezeOf(
  matching: unknown[],
  exclude: unknown[] = [],
  endsIn: number | null = 2 * HOUR,
  startsIn = -HOUR,
): CompiledFreeze {
  const start = new Date(SATURDAY.getTime() + startsIn);
  return compileFreeze({
    id: "f1",
    start,
    end: endsIn === null ? null : new Date(SATURDAY.getTime() + endsIn),
    matchingConditions: matching,
    excludeConditions: exclude,
  });
}

describe("a check's verdict under a scheduled freeze", () => {
  it("holds every member it matches until it ends, as a freeze", async () => {
    const result = await verdict([], "success", [freezeOf([])]);
    const end = SATURDAY.getTime() + 2 * HOUR;
    expect(result).toMatchObject({
      conditions: false,
      scheduleOpensAt: end,
      scheduleBlocked: { "1": end, "2": end },
      holdKind: "freeze",
    });
    expect(result).not.toHaveProperty("holdOpenEnded");
  });

  it("lets through the members its exclude conditions all match: the others could merge now", async () => {
    const result = await verdict(["hotfix"], "success", [freezeOf([], ["label=hotfix"])]);
    expect(result).toMatchObject({
      conditions: false,
      scheduleBlocked: { "2": SATURDAY.getTime() + 2 * HOUR },
      holdKind: "freeze",
    });
  });

  it("holds only the members its matching conditions match; an open-ended freeze is looked at again in 8 days", async () => {
    const result = await verdict(["frozen"], "success", [freezeOf(["label=frozen"], [], null)]);
    const again = SATURDAY.getTime() + 8 * 24 * HOUR;
    expect(result).toMatchObject({
      conditions: false,
      scheduleOpensAt: again,
      scheduleBlocked: { "1": again },
      holdKind: "freeze",
      holdOpenEnded: true,
    });
  });

  it("takes the later of the freeze's end and the member's closed schedule", async () => {
    const result = await verdict(["deps"], "success", [freezeOf([])]);
    expect(result).toMatchObject({
      conditions: false,
      scheduleOpensAt: MONDAY_NINE,
      scheduleBlocked: { "1": MONDAY_NINE, "2": SATURDAY.getTime() + 2 * HOUR },
      holdKind: "freeze",
    });
  });

  it("does nothing before the freeze begins, and a failure stays a failure during it", async () => {
    expect(await verdict([], "success", [freezeOf([], [], 3 * HOUR, HOUR)])).toMatchObject({
      conditions: true,
      scheduleOpensAt: null,
      holdKind: "schedule",
    });
    expect(await verdict([], "failure", [freezeOf([])])).toMatchObject({
      conditions: false,
      scheduleOpensAt: null,
      scheduleBlocked: null,
    });
  });

  it("holds a check that passed, releases it once no freeze holds it, and says nothing otherwise", async () => {
    expect(await verdict([], "success", [freezeOf([])], "passed")).toMatchObject({
      conditions: false,
      holdKind: "freeze",
      scheduleOpensAt: SATURDAY.getTime() + 2 * HOUR,
    });
    expect(await verdict([], "success", [freezeOf(["label=frozen"])], "passed and held")).toMatchObject({
      conditions: true,
    });
    expect(await verdict([], "success", [], "passed")).toBeNull();
  });
});

/** CI Insights' answer for the draft's failing check `test`: one failing test, quarantined on the base branch. */
const quarantinedFailure: TestResultsReader = async () => ({
  jobs: [{ name: "test", results: "stored", failing: 1, truncated: false }],
  failing: [
    {
      testId: "00000000-0000-4000-8000-000000000001",
      name: "app.clock",
      file: "tests/clock.t",
      quarantined: true,
      quarantineId: "00000000-0000-4000-8000-000000000002",
      health: "flaky",
      flakinessRatio: 0.5,
      failureMessage: "drift",
      job: "test",
      failedInOwnCi: [],
    },
  ],
});

describe("a check failing only on quarantined tests", () => {
  it("is handed to the engine with its test facts, which pass it", async () => {
    const result = await verdict([], "failure", [], "no", quarantinedFailure);
    expect(result).toMatchObject({ conditions: false, scheduleOpensAt: null, tests: { withoutQuarantined: true } });
  });

  it("is held by a freeze that holds its members, as a passed check is, until the freeze ends", async () => {
    const result = await verdict([], "failure", [freezeOf([])], "no", quarantinedFailure);
    const end = SATURDAY.getTime() + 2 * HOUR;
    expect(result).toMatchObject({
      conditions: false,
      scheduleOpensAt: end,
      scheduleBlocked: { "1": end, "2": end },
      holdKind: "freeze",
    });
    expect(result).not.toHaveProperty("tests");
  });
});
