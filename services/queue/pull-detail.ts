/**
 * The merge conditions of a queued pull request in a check, evaluated now with the check-*
 * attributes read from the check's pull request (the draft, or itself in place): the
 * `mergeability_check` of its detail (docs/api.md "Queued pull request") and the
 * `evaluated_conditions` checklist of the queue listing (docs/api.md "Queue listing").
 */
import { fromJson, type MessageInitShape } from "@bufbuild/protobuf";
import { ConditionsEvaluationSchema, type MergeabilityCheckSchema } from "../../gen/yardmaster/v1/queue_pb.js";
import type { EngineState, PullView } from "../engine/index.js";
import { evaluateFor, ruleConditions, type EvaluatedCondition } from "../config/index.js";
import type { ForgePort } from "../forge/index.js";
import { conditionsEvaluationJson, type Configuration } from "../config/index.js";
import { checkItem, ts } from "./view-mapping.js";

/** What the evaluation reads: the forge (two reads), the repository, its configuration and the instant. */
export interface EvaluationDeps {
  forge: Pick<ForgePort, "getPullRequest" | "getBranchProtection">;
  repository: string;
  config: Configuration | null;
  now: Date;
}

/** A queued pull request in a check, as the evaluation needs it. */
export interface CheckedPull {
  number: number;
  branch: string;
  queueRuleName: string;
  position: number;
  /** The pull request the checks run on; null before the draft exists. */
  checkPullRequest: number | null;
}

/**
 * The forge reads of `forge` made once each for the life of the returned object (one listing):
 * the pull requests of a batch share their check's pull request and their branch's protection.
 */
export function readsOnce(forge: EvaluationDeps["forge"]): EvaluationDeps["forge"] {
  const reads = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, read: () => Promise<T>): Promise<T> => {
    let p = reads.get(key) as Promise<T> | undefined;
    if (p === undefined) reads.set(key, (p = read()));
    return p;
  };
  return {
    getPullRequest: (repo, n) => once(`pull ${repo} ${n}`, () => forge.getPullRequest(repo, n)),
    getBranchProtection: (repo, b) => once(`protection ${repo} ${b}`, () => forge.getBranchProtection(repo, b)),
  };
}

/**
 * The merge conditions of the pull request's queue rule (branch protection injected as the rule
 * says), evaluated now; null when `config` lacks the rule.
 * @throws ForgeError from the forge reads (not converted here)
 */
export async function evaluatedMergeConditions(
  deps: EvaluationDeps,
  state: EngineState,
  p: CheckedPull,
): Promise<EvaluatedCondition | null> {
  const rule = deps.config?.queue_rules.find((r) => r.name === p.queueRuleName);
  if (!rule) return null;
  const [pr, protection, checkPr] = await Promise.all([
    deps.forge.getPullRequest(deps.repository, p.number),
    deps.forge.getBranchProtection(deps.repository, p.branch),
    p.checkPullRequest !== null
      ? deps.forge.getPullRequest(deps.repository, p.checkPullRequest)
      : Promise.resolve(null),
  ]);
  const entry = state.pulls[String(p.number)];
  return evaluateFor(
    ruleConditions(rule, "merge", protection),
    { ...pr, checks: checkPr ? checkPr.checks : pr.checks },
    { queueName: p.queueRuleName, queuedAt: entry ? new Date(entry.queuedAt) : null, queuePosition: p.position },
    deps.now,
  );
}

/**
 * The `mergeability_check` of a queued pull request whose view has one (`view.mergeabilityCheck`
 * set); times are epoch milliseconds turned into Timestamps. `conditions_evaluation` is absent when
 * `config` lacks the view's queue rule; `queue_pull_request_number` is 0 when there is none.
 * @throws ForgeError from the forge reads (not converted here)
 */
export async function mergeabilityDetail(
  deps: EvaluationDeps,
  state: EngineState,
  view: PullView,
): Promise<MessageInitShape<typeof MergeabilityCheckSchema>> {
  const m = view.mergeabilityCheck!;
  const evaluated = await evaluatedMergeConditions(deps, state, {
    number: view.number,
    branch: view.branch,
    queueRuleName: view.queueRuleName,
    position: view.position,
    checkPullRequest: m.queuePullRequestNumber,
  });
  return {
    checkType: m.checkType,
    queuePullRequestNumber: BigInt(m.queuePullRequestNumber ?? 0),
    startedAt: ts(m.startedAt),
    ciEndedAt: ts(m.ciEndedAt),
    ciState: m.ciState,
    state: m.state,
    checks: m.checks.map(checkItem),
    conditionsEvaluation: evaluated
      ? fromJson(ConditionsEvaluationSchema, conditionsEvaluationJson(evaluated, view.number))
      : undefined,
  };
}
