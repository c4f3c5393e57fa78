/**
 * The mergeability check of a queued pull request's detail (docs/api.md "Queued pull request"): the
 * check it is in, from the engine's view, and its merge conditions evaluated now, with the
 * check-* attributes read from the check's pull request (the draft, or itself in place).
 */
import { fromJson, type MessageInitShape } from "@bufbuild/protobuf";
import { ConditionsEvaluationSchema, type MergeabilityCheckSchema } from "../../gen/yardmaster/v1/queue_pb.js";
import type { EngineState, PullView } from "../engine/index.js";
import { evaluateFor, ruleConditions } from "../config/index.js";
import type { ForgePort } from "../forge/index.js";
import { conditionsEvaluationJson, type Configuration } from "../config/index.js";
import { checkItem, ts } from "./view-mapping.js";

/**
 * The `mergeability_check` of a queued pull request whose view has one (`view.mergeabilityCheck`
 * set); times are epoch milliseconds turned into Timestamps. `conditions_evaluation` is absent when
 * `config` lacks the view's queue rule; `queue_pull_request_number` is 0 when there is none.
 * @throws ForgeError from the forge reads (not converted here)
 */
export async function mergeabilityDetail(
  deps: { forge: ForgePort; repository: string; config: Configuration | null; now: Date },
  state: EngineState,
  view: PullView,
): Promise<MessageInitShape<typeof MergeabilityCheckSchema>> {
  const m = view.mergeabilityCheck!;
  const rule = deps.config?.queue_rules.find((r) => r.name === view.queueRuleName);
  let conditionsEvaluation;
  if (rule) {
    const [pr, protection, checkPr] = await Promise.all([
      deps.forge.getPullRequest(deps.repository, view.number),
      deps.forge.getBranchProtection(deps.repository, view.branch),
      m.queuePullRequestNumber !== null
        ? deps.forge.getPullRequest(deps.repository, m.queuePullRequestNumber)
        : Promise.resolve(null),
    ]);
    const entry = state.pulls[String(view.number)];
    const evaluated = evaluateFor(
      ruleConditions(rule, "merge", protection),
      { ...pr, checks: checkPr ? checkPr.checks : pr.checks },
      {
        queueName: view.queueRuleName,
        queuedAt: entry ? new Date(entry.queuedAt) : null,
        queuePosition: view.position,
      },
      deps.now,
    );
    conditionsEvaluation = fromJson(
      ConditionsEvaluationSchema,
      conditionsEvaluationJson(evaluated, view.number) as never,
    );
  }
  return {
    checkType: m.checkType,
    queuePullRequestNumber: BigInt(m.queuePullRequestNumber ?? 0),
    startedAt: ts(m.startedAt),
    ciEndedAt: ts(m.ciEndedAt),
    ciState: m.ciState,
    state: m.state,
    checks: m.checks.map(checkItem),
    conditionsEvaluation,
  };
}
