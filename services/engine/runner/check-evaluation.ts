/**
 * Whether a speculative check passed: the merge conditions of the batch's queue rule (with the
 * injected branch protection), evaluated for each of the batch's own pull requests, with the
 * check-* attributes read from the check's pull request (the draft, or the pull request itself in
 * place): research/domain.md §1.2 "check-* read from the draft PR". The result is true only when
 * it holds for every pull request of the batch, "pending" while a check it reads has not
 * concluded, false otherwise; when false only because of time-based conditions (a closed
 * `schedule`), `scheduleOpensAt` says when they all hold (schedule-verdict.ts), and the check waits;
 * `scheduleBlocked` names the members the schedule blocks (the others could merge now and the
 * batch gives way to them: schedule-yield.ts).
 * Each check of the check's pull request is reported as a QueueCheck.
 */
import type { ForgePort, PullRequestSnapshot } from "../../forge/types.js";
import { conditionEvaluationEventJson, type Configuration, type Truth } from "../../simulator/config/index.js";
import type { EngineEventInput } from "../events.js";
import type { Car, EngineState, QueueCheck } from "../state.js";
import { evaluateFor, ruleConditions, type ProtectionCache } from "./evaluation.js";
import { scheduleVerdict } from "./schedule-verdict.js";

/** The batch whose current check has this id, or undefined. */
export function carOfCheck(state: EngineState, checkId: string): { car: Car; branch: string } | undefined {
  for (const t of state.trains) for (const car of t.cars) if (car.check?.id === checkId) return { car, branch: t.branch };
  return undefined;
}

/** Checks currently running on a commit (several batches may share a head in theory). */
export function checksOnSha(state: EngineState, sha: string): string[] {
  const ids: string[] = [];
  for (const t of state.trains) for (const car of t.cars) if (car.check && car.check.headSha === sha && car.check.phase === "running") ids.push(car.check.id);
  return ids;
}

const OWN_APP = "yardmaster";

function queueCheck(c: PullRequestSnapshot["checks"][number]): QueueCheck {
  return { name: c.name, description: c.description, url: c.detailsUrl, state: c.state, avatar_url: null };
}

const and = (values: Truth[]): Truth => (values.includes(false) ? false : values.includes("pending") ? "pending" : true);

/**
 * The check_results event for a running check, or null when the check is not running (anymore).
 * @throws ForgeError when the forge cannot be read (the caller retries later)
 */
export async function evaluateCheck(
  deps: { forge: ForgePort; repository: string; config: Configuration; protections: ProtectionCache; now: Date },
  state: EngineState,
  checkId: string,
): Promise<EngineEventInput | null> {
  const found = carOfCheck(state, checkId);
  if (!found || !found.car.check || found.car.check.phase !== "running" || found.car.check.number === null) return null;
  const { car, branch } = found;
  const check = found.car.check;
  const rule = deps.config.queue_rules.find((r) => r.name === car.queueRule);
  if (!rule) return null;
  const protection = await deps.protections.get(branch);
  const conditions = ruleConditions(rule, "merge", protection);
  const checkPr = await deps.forge.getPullRequest(deps.repository, check.number!);
  // Only checks of the checked commit count: a check of an older head says nothing about this one.
  const checks = checkPr.headSha === check.headSha ? checkPr.checks.filter((c) => c.app !== OWN_APP) : [];
  const results: Truth[] = [];
  // Members whose conditions are false only because of time, with when they hold; `timeOnly`
  // turns false when a member's conditions are false for another reason.
  const blocked: Record<string, number> = {};
  let timeOnly = true;
  const evaluations: Record<string, Record<string, unknown>> = {};
  for (const n of car.members) {
    const member = n === checkPr.number ? checkPr : await deps.forge.getPullRequest(deps.repository, n);
    const entry = state.pulls[String(n)];
    const withChecks: PullRequestSnapshot = { ...member, checks };
    const queue = { queueName: car.queueRule, queuedAt: entry ? new Date(entry.queuedAt) : null };
    const evaluated = evaluateFor(conditions, withChecks, queue, deps.now);
    const verdict = scheduleVerdict((at) => (at === deps.now ? evaluated : evaluateFor(conditions, withChecks, queue, at)), deps.now);
    results.push(verdict.truth);
    if (verdict.truth === false && verdict.opensAt === null) timeOnly = false;
    else if (verdict.truth === false) blocked[String(n)] = verdict.opensAt!;
    evaluations[String(n)] = conditionEvaluationEventJson(evaluated, n) as unknown as Record<string, unknown>;
  }
  const truth = and(results);
  // False only because of a closed schedule for every member that is false: wait until all are open.
  const scheduleOpensAt = truth === false && timeOnly ? Math.max(...Object.values(blocked)) : null;
  return {
    type: "check_results", checkId, conditions: truth, checks: checks.map(queueCheck), evaluations, scheduleOpensAt,
    scheduleBlocked: scheduleOpensAt === null ? null : blocked,
  };
}
