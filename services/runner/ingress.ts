/**
 * Turns what the forge reports into engine events (docs/merge-queue.md "Runner"). Forge events are
 * triggers: the current facts are read again through the forge port, conditions are evaluated with
 * the configuration module, and the results go to the engine, one event at a time (each applied
 * before the next is computed, so later decisions see earlier ones).
 *
 * | forge event | engine events |
 * | --- | --- |
 * | comment with a command | pull_request_queued, dequeue_requested (+ replies, command.* log) |
 * | opened, edited, labeled, reviewed | queue_conditions_evaluated for a queued pull request; entering by a pull_request_rules `queue` action or a pending request |
 * | edited to another base branch | pull_request_base_changed (then as edited: it may enter the new branch's queue) |
 * | synchronized | pull_request_updated, then queue_conditions_evaluated |
 * | closed | pull_request_closed / pull_request_merged_externally; speculative_check_closed for a draft |
 * | checks changed on a commit | check_results of the checks on it; queue conditions of pull requests at it |
 * | branch pushed | base_branch_moved; configuration_changed when the default branch's file changed; speculative_check_edited when a draft's branch moved from the head the queue built |
 * | branch deleted | base_branch_deleted for a branch with a queue |
 */
import type { ForgeEvent, PullRequestSnapshot } from "../forge/index.js";
import { conditionEvaluationEventJson, type EvaluatedCondition } from "../config/index.js";
import { deleteQueueRequest, listQueueRequests } from "../store/index.js";
import type { LogEffect } from "../engine/index.js";
import { tunedConfiguration, type EngineState } from "../engine/index.js";
import { checkResults, checksOnSha } from "./check-evaluation.js";
import { onPullChangedUnderFreeze } from "./freeze-input.js";
import { parseCommand } from "./commands.js";
import { evaluateFor, ruleConditions } from "../config/index.js";
import { replies } from "./replies.js";
import { engineConfigurationInput } from "./repository-config.js";
import type { IngressEnv } from "./ingress-env.js";
import { isQueueBranch } from "./queue-drafts.js";

export type { IngressEnv } from "./ingress-env.js";
export { enqueue, type EnqueueResult } from "./enqueue.js";
import { enqueue, queued, reply } from "./enqueue.js";
import { autoQueue } from "./merge-protections/auto-merge.js";

/** Queue conditions of a queued pull request, evaluated now. */
async function reevaluate(env: IngressEnv, pr: PullRequestSnapshot): Promise<void> {
  const entry = queued(env, pr.number);
  if (!entry) return;
  const rule = env.config.config.queue_rules.find((r) => r.name === entry.queueRule);
  if (!rule) return;
  const evaluation = evaluateFor(
    ruleConditions(rule, "queue", await env.protections.get(pr.base)),
    pr,
    { queueName: entry.queueRule, queuedAt: new Date(entry.queuedAt) },
    env.now,
  );
  env.emit({
    type: "queue_conditions_evaluated",
    number: pr.number,
    result: evaluation.match,
    labels: pr.labels.map((l) => l.name),
    hostLabels: pr.labels,
    evaluation: conditionEvaluationEventJson(evaluation, pr.number) as unknown as Record<string, unknown>,
  });
  await onPullChangedUnderFreeze(env, pr.number);
}

/**
 * Pull requests that may enter now: a pending request, auto-merge (merge_protections_settings,
 * merge-protections/auto-merge.ts), or a matching pull_request_rules `queue` action.
 */
async function admit(env: IngressEnv, number: number): Promise<void> {
  if (queued(env, number)) return;
  const pending = (await listQueueRequests(env.client, env.repository)).find((r) => r.number === number);
  if (pending) {
    await enqueue(env, number, pending.queueRule, pending.trigger, true);
    return;
  }
  if (!env.products.merge_queue) return;
  // The `queue` action is workflow automation's: none while that product is off (docs/configuration.md "Products and unused sections").
  const rules = env.products.workflow_automation
    ? env.config.config.pull_request_rules.filter((r) => !r.disabled && r.actions.queue !== undefined)
    : [];
  const auto = env.products.merge_protections && env.config.config.merge_protections_settings.auto_merge_conditions;
  if (rules.length === 0 && (auto === null || auto === false)) return;
  const pr = await env.forge.getPullRequest(env.repository, number);
  if (pr.state !== "open") return;
  if (await autoQueue(env, pr)) return;
  for (const r of rules) {
    if (evaluateFor(r.conditions, pr, {}, env.now).match !== true) continue;
    const options = (r.actions.queue ?? {}) as { name?: string | null };
    await enqueue(env, number, options.name ?? null, `Rule: ${r.name}`, false);
    return;
  }
}

async function onCommand(env: IngressEnv, e: Extract<ForgeEvent, { kind: "comment_created" }>): Promise<void> {
  const command = parseCommand(e.body);
  if (!command) return;
  if (command.name === "unknown") return reply(env, e.number, replies.unknownCommand(command.word), true);
  const pr = await env.forge.getPullRequest(env.repository, e.number);
  const restriction = env.config.config.commands_restrictions[command.name];
  if (restriction) {
    const permission = await env.forge.getPermission(env.repository, e.author.login);
    const evaluation: EvaluatedCondition = evaluateFor(
      restriction.conditions,
      pr,
      { sender: e.author.login, senderPermission: permission },
      env.now,
    );
    if (evaluation.match !== true) return reply(env, e.number, replies.notAllowed(command.name, evaluation), true);
  }
  const entry = queued(env, e.number);
  const commandLog = (type: "command.queue" | "command.dequeue"): LogEffect => ({
    kind: "log",
    type,
    pullRequest: e.number,
    baseRef: pr.base,
    trigger: `Command: ${command.name}`,
    metadata: {
      author: { login: e.author.login, id: e.author.id, type: e.author.type, avatar_url: e.author.avatarUrl },
      comment_id: e.commentId,
      session_id: entry?.sessionId ?? null,
      command_trigger: "comment",
      trigger_comment_url: e.url,
    },
  });
  switch (command.name) {
    case "queue":
    case "requeue":
      env.log(commandLog("command.queue"));
      await enqueue(env, e.number, command.args[0] ?? null, `Command: ${command.name}`, true);
      return;
    case "dequeue": {
      env.log(commandLog("command.dequeue"));
      if (entry) {
        env.emit({ type: "dequeue_requested", number: e.number, trigger: "Command: dequeue", source: "command" });
        return reply(env, e.number, replies.dequeued(), true);
      }
      const pending = (await listQueueRequests(env.client, env.repository)).some((r) => r.number === e.number);
      await deleteQueueRequest(env.client, env.repository, e.number);
      return reply(env, e.number, pending ? replies.dequeued() : replies.notInQueue(), true);
    }
    case "refresh":
      env.log({
        kind: "log",
        type: "action.refresh",
        pullRequest: e.number,
        baseRef: pr.base,
        trigger: "Command: refresh",
        metadata: {},
      });
      await reevaluate(env, pr);
      await admit(env, e.number);
      return reply(env, e.number, replies.refreshed(), true);
  }
}

async function onClosed(env: IngressEnv, e: Extract<ForgeEvent, { kind: "pull_request_closed" }>): Promise<void> {
  await deleteQueueRequest(env.client, env.repository, e.number);
  const state = env.state();
  for (const t of state.trains) {
    for (const batch of t.batches) {
      if (
        batch.check &&
        batch.check.mode === "draft" &&
        batch.check.number === e.number &&
        (batch.check.phase === "running" || batch.check.phase === "creating")
      ) {
        env.emit({ type: "speculative_check_closed", checkId: batch.check.id });
      }
    }
  }
  const entry = queued(env, e.number);
  if (!entry) return;
  if (!e.merged) {
    env.emit({ type: "pull_request_closed", number: e.number });
    return;
  }
  // A merge by the queue itself is reported by the merge effect's result.
  const mergingByQueue = state.trains.some((t) => t.batches.some((c) => c.merging && c.members.includes(e.number)));
  if (!mergingByQueue) env.emit({ type: "pull_request_merged_externally", number: e.number });
}

async function onChecksChanged(env: IngressEnv, sha: string): Promise<void> {
  for (const checkId of checksOnSha(env.state(), sha)) await checkResults(env, checkId);
  const state = env.state();
  for (const entry of Object.values(state.pulls)) {
    if (entry.headSha !== sha) continue;
    await reevaluate(env, await env.forge.getPullRequest(env.repository, entry.number));
  }
  for (const r of await listQueueRequests(env.client, env.repository)) {
    const pr = await env.forge.getPullRequest(env.repository, r.number);
    if (pr.headSha === sha) await enqueue(env, r.number, r.queueRule, r.trigger, true);
  }
}

async function onBranchPushed(env: IngressEnv, e: Extract<ForgeEvent, { kind: "branch_pushed" }>): Promise<void> {
  const defaultBranch = await env.forge.getDefaultBranch(env.repository);
  if (e.branch === defaultBranch) {
    const now = env.now.getTime();
    // A push proven not to touch the file, from the commit whose configuration is stored: nothing to read.
    const unchanged =
      e.configUnchanged === true && env.configProofs.current(env.repository, e.before, env.config.textSha, now);
    if (!unchanged) {
      const before = env.config.textSha;
      const next = await env.reloadConfig();
      if (next.textSha !== before)
        env.emit({
          type: "configuration_changed",
          config: tunedConfiguration(engineConfigurationInput(next.config), env.traffic),
        });
    }
    if (e.after !== null) env.configProofs.note(env.repository, e.after, env.config.textSha, now, !unchanged);
  }
  if (e.after && env.state().bases[e.branch]) env.emit({ type: "base_branch_moved", branch: e.branch, sha: e.after });
  if (e.after === null && env.state().bases[e.branch]) env.emit({ type: "base_branch_deleted", branch: e.branch });
  // A move of a draft's branch from the head the queue built: commits the queue did not make.
  if (e.after !== null && e.before !== null) {
    for (const checkId of draftChecksAt(env.state(), e.branch, e.before))
      env.emit({ type: "speculative_check_edited", checkId, headSha: e.after });
  }
}

/** Ids of the draft checks running (or passed) on `branch` at head `sha`. */
function draftChecksAt(state: EngineState, branch: string, sha: string): string[] {
  return state.trains
    .flatMap((t) => t.batches)
    .map((c) => c.check)
    .filter(
      (c) =>
        c !== null &&
        c.mode === "draft" &&
        c.branch === branch &&
        c.headSha === sha &&
        (c.phase === "running" || c.phase === "passed"),
    )
    .map((c) => c!.id);
}

/** Applies one forge event. @throws ForgeError when the forge cannot be read (retried later). */
export async function translateForgeEvent(env: IngressEnv, e: ForgeEvent): Promise<void> {
  // The queue's own drafts never enter the queue: only their closing matters (onClosed).
  if ("head" in e && e.kind !== "pull_request_closed" && isQueueBranch(env, e.head)) return;
  switch (e.kind) {
    case "comment_created":
      return onCommand(env, e);
    case "pull_request_opened":
      return admit(env, e.number);
    case "pull_request_synchronized": {
      const entry = queued(env, e.number);
      if (entry && entry.headSha !== e.headSha)
        env.emit({ type: "pull_request_updated", number: e.number, headSha: e.headSha });
      await admit(env, e.number);
      return;
    }
    case "pull_request_edited": {
      const pr = await env.forge.getPullRequest(env.repository, e.number);
      const entry = queued(env, e.number);
      if (entry && entry.baseRef !== pr.base)
        env.emit({ type: "pull_request_base_changed", number: e.number, baseRef: pr.base });
      if (queued(env, e.number)) await reevaluate(env, pr);
      else await admit(env, e.number);
      return;
    }
    case "pull_request_labeled":
    case "pull_request_reviewed": {
      const pr = await env.forge.getPullRequest(env.repository, e.number);
      if (queued(env, e.number)) await reevaluate(env, pr);
      else await admit(env, e.number);
      return;
    }
    case "pull_request_closed":
      return onClosed(env, e);
    case "checks_changed":
      return onChecksChanged(env, e.sha);
    case "branch_pushed":
      return onBranchPushed(env, e);
  }
}
