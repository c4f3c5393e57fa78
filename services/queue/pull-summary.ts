/**
 * GetPullRequestSummary (docs/dashboard.md "Pages"): a pull request as its page shows it,
 * queued or not: the forge's facts (title, author, state) and the queue and merge conditions of
 * its queue rule evaluated now (docs/conditions.md "API form"). The rule is its own while queued;
 * otherwise the one `@yardmaster queue` would choose now (the first whose queue conditions match,
 * or are pending: config/rules/rule-evaluation.ts `chooseRule`).
 */
import { fromJson, type MessageInitShape } from "@bufbuild/protobuf";
import { ConditionsEvaluationSchema, type PullRequestSummarySchema } from "../../gen/yardmaster/v1/queue_pb.js";
import {
  chooseRule,
  conditionsEvaluationJson,
  evaluateFor,
  ruleConditions,
  type Configuration,
  type EvaluatedCondition,
} from "../config/index.js";
import { DomainError } from "../contracts/index.js";
import { pullView, type EngineState } from "../engine/index.js";
import { isForgeError, type ForgePort } from "../forge/index.js";
import { evaluatedMergeConditions } from "./pull-detail.js";

/** What the summary reads: the forge, the repository's state and configuration, and the instant. */
export interface SummaryDeps {
  forge: Pick<ForgePort, "getPullRequest" | "getBranchProtection">;
  repository: string;
  state: EngineState | null;
  /** The configuration the queue runs with; an Error when the stored file is invalid. */
  config: Configuration | Error;
  now: Date;
}

type SummaryInit = MessageInitShape<typeof PullRequestSummarySchema>;

const tree = (e: EvaluatedCondition | null, n: number) =>
  e ? fromJson(ConditionsEvaluationSchema, conditionsEvaluationJson(e, n)) : undefined;

/**
 * The summary of pull request `number`.
 * @throws DomainError not_found when the forge has no such pull request; ForgeError of other kinds
 *   (answered with their own status by the gateway)
 */
export async function pullRequestSummary(deps: SummaryDeps, number: number): Promise<SummaryInit> {
  const pr = await deps.forge.getPullRequest(deps.repository, number).catch((e: unknown) => {
    if (isForgeError(e, "not_found"))
      throw new DomainError("not_found", `${deps.repository} has no pull request #${number}`);
    throw e;
  });
  const config = deps.config instanceof Error ? null : deps.config;
  const view = deps.state ? pullView(deps.state, number, deps.now.getTime()) : null;
  const base: SummaryInit = {
    number: BigInt(number),
    title: pr.title,
    url: pr.url,
    author: { id: BigInt(pr.author.id), login: pr.author.login },
    state: pr.state,
    baseRef: pr.base,
    headSha: pr.headSha,
    draft: pr.draft,
    labels: pr.labels.map((l) => l.name),
    queued: view !== null,
    queueRules: config?.queue_rules.map((r) => r.name) ?? [],
  };
  if (!config) return { ...base, notQueueableReason: (deps.config as Error).message };
  const protection = await deps.forge.getBranchProtection(deps.repository, pr.base);
  if (view) {
    const rule = config.queue_rules.find((r) => r.name === view.queueRuleName);
    if (!rule) return { ...base, queueRuleName: view.queueRuleName };
    const merge = await evaluatedMergeConditions({ ...deps, config }, deps.state!, {
      number,
      branch: view.branch,
      queueRuleName: view.queueRuleName,
      position: view.position,
      checkPullRequest: view.mergeabilityCheck?.queuePullRequestNumber ?? null,
    });
    const queue = evaluateFor(ruleConditions(rule, "queue", protection), pr, {}, deps.now);
    return {
      ...base,
      queueRuleName: rule.name,
      queueConditions: tree(queue, number),
      mergeConditions: tree(merge, number),
    };
  }
  if (pr.state !== "open") return { ...base, notQueueableReason: `the pull request is ${pr.state}` };
  const choice = chooseRule(config, pr, protection, deps.now, null);
  if (choice.rule === null) return { ...base, notQueueableReason: choice.reason };
  const merge = evaluateFor(
    ruleConditions(choice.rule, "merge", protection),
    pr,
    { queueName: choice.rule.name },
    deps.now,
  );
  return {
    ...base,
    queueRuleName: choice.rule.name,
    queueConditions: tree(choice.evaluation, number),
    mergeConditions: tree(merge, number),
  };
}
