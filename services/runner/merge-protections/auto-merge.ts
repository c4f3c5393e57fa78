/**
 * `merge_protections_settings.auto_merge_conditions` (docs/merge-protections.md "Auto-merge";
 * https://docs.mergify.com/merge-protections/auto-merge/): `true` or a condition list selecting
 * the pull requests merged without anyone asking, once merge protections are enabled.
 * - With the merge queue enabled, a matching open pull request is queued (trigger
 *   `Merge protections: auto-merge`); the queue's own rules, and the protections' hold, decide
 *   when it merges.
 * - Without it, a matching pull request is merged directly once its protections succeed, when at
 *   least one protection applies to it (with none, nothing says it may merge): a `merge` action
 *   decided once per head (its idempotency key names the head SHA), performed like the `merge`
 *   action of pull_request_rules (docs/workflow-automation.md "Actions").
 */
import { evaluateFor, type ProtectionsVerdict, type PullRequestSnapshot } from "../../config/index.js";
import { claimPullRuleAction } from "../../store/index.js";
import { enqueue } from "../enqueue.js";
import type { IngressEnv } from "../ingress-env.js";

/** The trigger of what auto-merge does. */
export const AUTO_MERGE_TRIGGER = "Merge protections: auto-merge";

/** Whether auto-merge selects `pr` now (enabled product, settings, conditions). */
function selected(env: IngressEnv, pr: PullRequestSnapshot): boolean {
  const auto = env.config.config.merge_protections_settings.auto_merge_conditions;
  if (!env.products.merge_protections || auto === null || pr.state !== "open") return false;
  return auto === true || evaluateFor(auto, pr, {}, env.now).match === true;
}

/**
 * Queues `pr` when auto-merge selects it and the merge queue is enabled.
 * @returns whether it asked the queue (entered, waiting for its queue conditions, or refused)
 */
export async function autoQueue(env: IngressEnv, pr: PullRequestSnapshot): Promise<boolean> {
  if (!env.products.merge_queue || !selected(env, pr)) return false;
  await enqueue(env, pr.number, null, AUTO_MERGE_TRIGGER, false);
  return true;
}

/** Merges `pr` directly when auto-merge selects it, the merge queue is off and its protections succeed. */
export async function autoMergeDirectly(
  env: IngressEnv,
  pr: PullRequestSnapshot,
  verdict: ProtectionsVerdict,
): Promise<void> {
  if (env.products.merge_queue || !selected(env, pr)) return;
  if (verdict.conclusion !== "success" || !verdict.rules.some((r) => r.decides)) return;
  const key = `${env.repository}#${pr.number}#${AUTO_MERGE_TRIGGER}#${pr.headSha}#merge`;
  const claimed = await claimPullRuleAction(env.client, {
    key,
    repository: env.repository,
    number: pr.number,
    rule: AUTO_MERGE_TRIGGER,
    transition: 0,
    action: "merge",
  });
  if (!claimed) return;
  env.ruleEffect({
    kind: "rule_action",
    key,
    number: pr.number,
    baseRef: pr.base,
    rule: AUTO_MERGE_TRIGGER,
    action: "merge",
    options: {},
    error: null,
  });
}
