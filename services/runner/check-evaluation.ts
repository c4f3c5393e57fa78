/**
 * Whether a speculative check passed: the merge conditions of the batch's queue rule (with the
 * injected branch protection), evaluated for each of the batch's own pull requests, with the
 * check-* attributes read from the check's pull request (the draft, or the pull request itself in
 * place): docs/domain.md §1.2 "Checks of the draft". The result is true only when
 * it holds for every pull request of the batch, "pending" while a check it reads has not
 * concluded, false otherwise; when false only because of time-based conditions (a closed
 * `schedule`), `scheduleOpensAt` says when they all hold (config/rules/schedule-verdict.ts), and the check waits;
 * `scheduleBlocked` names the members the schedule blocks (the others could merge now and the
 * batch gives way to them: schedule-yield.ts). A scheduled freeze holds members the same way
 * (`frozen`, docs/scheduled-freeze.md), also after the check passed.
 * Each check of the check's pull request is reported as a QueueCheck.
 */
import type { ForgePort, PullRequestSnapshot } from "../forge/index.js";
import { conditionEvaluationEventJson, type Configuration, type Truth } from "../config/index.js";
import type { EngineEventInput } from "../engine/index.js";
import type { Batch, EngineState, QueueCheck } from "../engine/index.js";
import {
  anyActive,
  evaluateFor,
  freezeHold,
  ruleConditions,
  scheduleVerdict,
  type CompiledFreeze,
  type FreezeHold,
} from "../config/index.js";
import type { ProtectionCache } from "./protection-cache.js";
import { carriedPulls } from "../engine/index.js";
import type { IngressEnv } from "./ingress-env.js";
import { afterRerun, gatherTestFacts, type EvaluatedMember, type TestResultsReader } from "./test-facts.js";

/** The batch whose current check has this id, or undefined. */
export function batchOfCheck(state: EngineState, checkId: string): { batch: Batch; branch: string } | undefined {
  for (const t of state.trains)
    for (const batch of t.batches) if (batch.check?.id === checkId) return { batch, branch: t.branch };
  return undefined;
}

/** Checks currently running on a commit (several batches may share a head in theory). */
export function checksOnSha(state: EngineState, sha: string): string[] {
  const ids: string[] = [];
  for (const t of state.trains)
    for (const batch of t.batches)
      if (batch.check && batch.check.headSha === sha && batch.check.phase === "running") ids.push(batch.check.id);
  return ids;
}

const OWN_APP = "yardmaster";

function queueCheck(c: PullRequestSnapshot["checks"][number]): QueueCheck {
  return { name: c.name, description: c.description, url: c.detailsUrl, state: c.state, avatar_url: null };
}

const and = (values: Truth[]): Truth =>
  values.includes(false) ? false : values.includes("pending") ? "pending" : true;

/**
 * The check_results event for a running check, or for a check that passed and is not merging (a
 * freeze hold or its release only: docs/scheduled-freeze.md); null when there is nothing to say.
 * A member whose merge conditions hold (or are false only because of time) but that an active
 * scheduled freeze holds counts as blocked until the freeze ends (config/rules/freeze-hold.ts); the event then
 * has `holdKind: "freeze"` (`frozen`).
 * @throws ForgeError when the forge cannot be read (the caller retries later)
 */
export async function evaluateCheck(
  deps: {
    forge: ForgePort;
    repository: string;
    config: Configuration;
    protections: ProtectionCache;
    now: Date;
    freezes: readonly CompiledFreeze[];
    /** CI Insights' facts about failed checks (null: the queue is blind to tests). */
    testResults?: TestResultsReader | null;
  },
  state: EngineState,
  checkId: string,
): Promise<EngineEventInput | null> {
  const found = batchOfCheck(state, checkId);
  if (!found || !found.batch.check || found.batch.check.number === null) return null;
  if (found.batch.check.phase === "passed" && !found.batch.merging) return passedCheckFreeze(deps, state, found.batch);
  if (found.batch.check.phase !== "running") return null;
  const { batch, branch } = found;
  const check = found.batch.check;
  const rule = deps.config.queue_rules.find((r) => r.name === batch.queueRule);
  if (!rule) return null;
  const protection = await deps.protections.get(branch);
  const conditions = ruleConditions(rule, "merge", protection);
  // In place, the checked pull request is the member; a draft's checks are those of its commit,
  // read alone (on GitHub one query instead of a pull request's two: docs/github.md "Request budget").
  const checkPr = check.mode === "in_place" ? await deps.forge.getPullRequest(deps.repository, check.number!) : null;
  // Only checks of the checked commit count: a check of an older head says nothing about this one.
  const onCommit = checkPr
    ? checkPr.headSha === check.headSha
      ? checkPr.checks
      : []
    : check.headSha
      ? await deps.forge.getCommitChecks(deps.repository, check.headSha)
      : [];
  // After a re-run for known flaky tests, the re-run jobs' earlier results are pending (test-facts.ts).
  const checks = afterRerun(
    onCommit.filter((c) => c.app !== OWN_APP),
    check,
  );
  const results: Truth[] = [];
  // Members whose conditions are false only because of time or held by a freeze, with when they
  // hold; `timeOnly` turns false when a member's conditions are false for another reason.
  const blocked: Record<string, number> = {};
  let timeOnly = true;
  let frozen = false;
  let openEnded = false;
  const evaluations: Record<string, Record<string, unknown>> = {};
  const evaluated: EvaluatedMember[] = [];
  // How a freeze would hold each member were its checks passing (a pass on quarantined failures).
  const heldIfPassed: Record<string, FreezeHold> = {};
  for (const n of batch.members) {
    const member = checkPr && n === checkPr.number ? checkPr : await deps.forge.getPullRequest(deps.repository, n);
    const entry = state.pulls[String(n)];
    const withChecks: PullRequestSnapshot = { ...member, checks };
    const queue = { queueName: batch.queueRule, queuedAt: entry ? new Date(entry.queuedAt) : null };
    const evaluation = evaluateFor(conditions, withChecks, queue, deps.now);
    evaluated.push({ snapshot: withChecks, evaluate: (s) => evaluateFor(conditions, s, queue, deps.now) });
    const verdict = scheduleVerdict(
      (at) => (at === deps.now ? evaluation : evaluateFor(conditions, withChecks, queue, at)),
      deps.now,
    );
    const hold =
      verdict.truth === "pending" || (verdict.truth === false && verdict.opensAt === null)
        ? null
        : freezeHold(deps.freezes, member, queue, deps.now);
    evaluations[String(n)] = conditionEvaluationEventJson(evaluation, n) as unknown as Record<string, unknown>;
    const ifPassed = hold ?? freezeHold(deps.freezes, member, queue, deps.now);
    if (ifPassed !== null) heldIfPassed[String(n)] = ifPassed;
    if (hold !== null) {
      frozen = true;
      openEnded ||= hold.openEnded;
      results.push(false);
      blocked[String(n)] = Math.max(hold.until, verdict.opensAt ?? 0);
      continue;
    }
    results.push(verdict.truth);
    if (verdict.truth === false && verdict.opensAt === null) timeOnly = false;
    else if (verdict.truth === false) blocked[String(n)] = verdict.opensAt!;
  }
  // What a pass would merge with it (skip_intermediate_results) must not be frozen either.
  const decided = timeOnly && !results.includes("pending");
  for (const [n, hold] of Object.entries(decided ? await carriedFreezes(deps, state, checkId) : {})) {
    frozen = true;
    openEnded ||= hold.openEnded;
    results.push(false);
    blocked[n] = hold.until;
  }
  const truth = and(results);
  // False only because of a closed schedule or a freeze for every member that is false: wait until all are open.
  const scheduleOpensAt = truth === false && timeOnly ? Math.max(...Object.values(blocked)) : null;
  // A failure: what its test results say (docs/merge-queue.md "Verdicts from test results").
  const tests =
    truth === false && scheduleOpensAt === null
      ? await gatherTestFacts(deps.testResults ?? null, {
          repository: deps.repository,
          baseBranch: branch,
          headSha: check.headSha!,
          checks,
          members: evaluated,
        })
      : undefined;
  // Passing on quarantined failures merges: a freeze holds such a check as it holds a passed one.
  const held = tests?.withoutQuarantined === true ? await freezeOfPass(deps, state, checkId, heldIfPassed) : null;
  const queueChecks = checks.map(queueCheck);
  if (held !== null)
    return { type: "check_results", checkId, conditions: false, checks: queueChecks, evaluations, ...held };
  return {
    type: "check_results",
    checkId,
    conditions: truth,
    checks: checks.map(queueCheck),
    evaluations,
    scheduleOpensAt,
    scheduleBlocked: scheduleOpensAt === null ? null : blocked,
    holdKind: frozen && scheduleOpensAt !== null ? "freeze" : "schedule",
    ...(frozen && openEnded && scheduleOpensAt !== null ? { holdOpenEnded: true } : {}),
    ...(tests ? { tests } : {}),
  };
}

/** What reading a pull request's freeze hold needs (IngressEnv has it all). */
export type FreezeDeps = { forge: ForgePort; repository: string; now: Date; freezes: readonly CompiledFreeze[] };

/** How the freezes hold queued pull request `n` now (config/rules/freeze-hold.ts), or null; read from the forge. */
export async function pullFreezeHold(deps: FreezeDeps, state: EngineState, n: number): Promise<FreezeHold | null> {
  const entry = state.pulls[String(n)];
  const snapshot = await deps.forge.getPullRequest(deps.repository, n);
  return freezeHold(
    deps.freezes,
    snapshot,
    { queueName: entry?.queueRule, queuedAt: entry ? new Date(entry.queuedAt) : null },
    deps.now,
  );
}

/**
 * The pull requests a pass of this check would merge besides its own (carriedPulls:
 * skip_intermediate_results) that a freeze holds, each with until when; empty without an active freeze.
 */
async function carriedFreezes(
  deps: FreezeDeps,
  state: EngineState,
  checkId: string,
): Promise<Record<string, FreezeHold>> {
  const out: Record<string, FreezeHold> = {};
  if (!anyActive(deps.freezes, deps.now)) return out;
  for (const n of carriedPulls(state, checkId)) {
    const hold = await pullFreezeHold(deps, state, n);
    if (hold !== null) out[String(n)] = hold;
  }
  return out;
}

/**
 * A passed check's freeze: held (conditions false until the latest end of the freezes holding them)
 * when an active freeze holds one of its members or of what it would carry into the base with it,
 * released (conditions true) when it was held and none does any more, else null. Its merge
 * conditions are not evaluated again.
 */
async function passedCheckFreeze(deps: FreezeDeps, state: EngineState, batch: Batch): Promise<EngineEventInput | null> {
  const check = batch.check!;
  const held = (check.scheduleHeldUntil ?? null) !== null;
  if (!held && !anyActive(deps.freezes, deps.now)) return null;
  const holds: Record<string, FreezeHold> = await carriedFreezes(deps, state, check.id);
  for (const n of batch.members) {
    const hold = await pullFreezeHold(deps, state, n);
    if (hold !== null) holds[String(n)] = hold;
  }
  const base = { type: "check_results" as const, checkId: check.id, checks: check.checks };
  const all = Object.values(holds);
  if (all.length > 0) {
    const blocked = Object.fromEntries(Object.entries(holds).map(([n, h]) => [n, h.until]));
    return {
      ...base,
      conditions: false,
      scheduleOpensAt: Math.max(...all.map((h) => h.until)),
      scheduleBlocked: blocked,
      holdKind: "freeze",
      ...(all.some((h) => h.openEnded) ? { holdOpenEnded: true } : {}),
    };
  }
  return held ? { ...base, conditions: true } : null;
}

/**
 * Evaluates a check (running, or passed and not merging: a freeze may hold or release it) and
 * gives the result to the engine; nothing when there is nothing to say.
 * @throws ForgeError when the forge cannot be read
 */
export async function checkResults(env: IngressEnv, checkId: string): Promise<void> {
  const event = await evaluateCheck(
    {
      forge: env.forge,
      repository: env.repository,
      config: env.config.config,
      protections: env.protections,
      now: env.now,
      freezes: env.freezes,
      testResults: env.testResults,
    },
    env.state(),
    checkId,
  );
  if (event) env.emit(event);
}

type CheckResultsInput = Extract<EngineEventInput, { type: "check_results" }>;

/**
 * The freeze hold of a check that would pass (its failures only on quarantined tests): its members
 * a freeze holds (`held`) and what the pass would carry along, each until when, as the event's
 * hold fields (`holdKind: "freeze"`); null when no freeze holds any (docs/scheduled-freeze.md).
 */
async function freezeOfPass(
  deps: FreezeDeps,
  state: EngineState,
  checkId: string,
  held: Record<string, FreezeHold>,
): Promise<Pick<CheckResultsInput, "scheduleOpensAt" | "scheduleBlocked" | "holdKind" | "holdOpenEnded"> | null> {
  const holds = Object.entries({ ...held, ...(await carriedFreezes(deps, state, checkId)) });
  if (holds.length === 0) return null;
  return {
    scheduleOpensAt: Math.max(...holds.map(([, h]) => h.until)),
    scheduleBlocked: Object.fromEntries(holds.map(([n, h]) => [n, h.until])),
    holdKind: "freeze",
    ...(holds.some(([, h]) => h.openEnded) ? { holdOpenEnded: true } : {}),
  };
}
