/**
 * Entering the queue (docs/merge-queue.md "Runner"): a pull request is queued under the rule named
 * or the first whose queue conditions hold; while they are pending the request waits in
 * queue_requests and is retried when the pull request changes. Nothing enters while the
 * merge_queue product is off; merge protections that do not pass hold it from the start. Also the
 * queue's replies as comments (merge_queue.status_comments). Used by the ingress (forge events,
 * commands) and the runner's API calls.
 */
import { choosePriority, chooseRule, parseDependsOn, partitionsOf } from "../config/index.js";
import { scopesFor } from "./ci-scopes.js";
import { deleteQueueRequest, putQueueRequest } from "../store/index.js";
import type { IngressEnv } from "./ingress-env.js";
import { holdOf, protectionsOf } from "./merge-protections/evaluate.js";
import { replies } from "./replies.js";
import { flakyTestsTouched, riskSignalsOf } from "./risk-signals.js";

/** Why nothing enters while the merge_queue product is off (docs/configuration.md "Products and unused sections"). */
export const QUEUE_DISABLED = "the merge queue is disabled on this repository";

/**
 * The outcome of {@link enqueue}: queued under `rule`; pending (waiting in queue_requests for the
 * queue conditions of `rule`); or refused, with the reason (also the reply's text).
 */
export type EnqueueResult =
  | { kind: "queued"; rule: string }
  | { kind: "pending"; rule: string }
  | { kind: "refused"; reason: string };

export const queued = (env: IngressEnv, n: number) => env.state().pulls[String(n)];

export function reply(env: IngressEnv, number: number, body: string, always = false): void {
  const level = env.config.config.merge_queue.status_comments;
  if (always || level === "all") env.effect({ kind: "comment", number, body });
}

/**
 * Puts a pull request in the queue if a queue rule accepts it: the named rule, or the first whose
 * queue conditions hold; while they are pending the request waits (queue_requests) and is
 * retried when the pull request's checks or labels change.
 */
export async function enqueue(
  env: IngressEnv,
  number: number,
  ruleName: string | null,
  trigger: string,
  replyTo: boolean,
): Promise<EnqueueResult> {
  if (!env.products.merge_queue) {
    await deleteQueueRequest(env.client, env.repository, number);
    if (replyTo) reply(env, number, replies.queueDisabled(), true);
    return { kind: "refused", reason: QUEUE_DISABLED };
  }
  const pr = await env.forge.getPullRequest(env.repository, number);
  if (pr.state !== "open") {
    await deleteQueueRequest(env.client, env.repository, number);
    if (replyTo) reply(env, number, replies.notQueued("the pull request is not open", []), true);
    return { kind: "refused", reason: "the pull request is not open" };
  }
  const protection = await env.protections.get(pr.base);
  const choice = chooseRule(env.config.config, pr, protection, env.now, ruleName);
  if (choice.rule === null) {
    await deleteQueueRequest(env.client, env.repository, number);
    if (replyTo) reply(env, number, replies.notQueued(choice.reason, choice.evaluations), true);
    return { kind: "refused", reason: choice.reason };
  }
  if (choice.match === "pending") {
    await putQueueRequest(env.client, env.repository, { number, queueRule: ruleName, trigger });
    if (replyTo) reply(env, number, replies.queuePending(choice.rule.name, choice.evaluation));
    return { kind: "pending", rule: choice.rule.name };
  }
  await deleteQueueRequest(env.client, env.repository, number);
  const priority = choosePriority(env.config.config, pr, choice.rule.name, env.now);
  const { scopes, allScopes } = await scopesFor(env, pr);
  const dependsOn = parseDependsOn(pr.body)
    .filter((d) => d.repository === null || d.repository.toLowerCase() === env.repository.toLowerCase())
    .map((d) => d.number);
  // Merge protections hold it from the start when they do not pass (docs/merge-protections.md "The queue").
  const protectionsHold = env.products.merge_protections ? holdOf((await protectionsOf(env, pr)).verdict) : null;
  // Known flaky tests are read only for a rule that uses them (docs/merge-queue.md "Risk-aware batching").
  const flaky =
    choice.rule.risk_aware_batching === true
      ? await flakyTestsTouched(env.flakyTests, { repository: env.repository, pr, log: env.logger })
      : 0;
  const ok = env.emit({
    type: "pull_request_queued",
    trigger,
    pull: {
      number,
      title: pr.title,
      url: pr.url,
      author: pr.author,
      labels: pr.labels.map((l) => l.name),
      hostLabels: pr.labels,
      headSha: pr.headSha,
      baseRef: pr.base,
      baseSha: pr.baseSha,
      queueRule: choice.rule.name,
      priority: priority.priority,
      priorityRuleName: priority.ruleName,
      allowChecksInterruption: priority.allowChecksInterruption,
      scopes,
      allScopes,
      partitions: partitionsOf(env.config.config, pr, env.now),
      dependsOn,
      protectionsHold,
      risk: riskSignalsOf(pr, flaky),
    },
  });
  if (!ok) return { kind: "refused", reason: "the queue refused the pull request" };
  if (replyTo) reply(env, number, replies.queued(choice.rule.name));
  return { kind: "queued", rule: choice.rule.name };
}
