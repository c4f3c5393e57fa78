/**
 * The actions of pull request rules that write git (docs/workflow-automation.md "Actions"): merge,
 * update, rebase, squash, delete_head_branch, backport and copy. Each reads the forge first so a
 * resume after a crash does not act twice: a merged pull request is not merged again, a head with
 * nothing behind its base is not updated again, a squashed head stays one commit, a deleted
 * branch is gone, and a backport's branch and pull request (named after the source pull request
 * and the target) are found again.
 */
import { FAILPOINT_NAMES, failpoint } from "../../failpoints/index.js";
import { ForgeError, isForgeError, type MergeMethod, type PullRequestSnapshot } from "../../forge/index.js";
import { isRetryable } from "../effect-journal.js";
import type { RuleActionEffect } from "./effect.js";
import { loginsOf, type ActionDeps, type ActionEvent } from "./action-deps.js";

/** The configuration files a merge action leaves alone unless allowed (docs/configuration.md). */
const CONFIG_FILES = [".yardmaster.yml", ".github/yardmaster.yml"];

/** The branch a backport or copy of pull request `number` to `target` is built on. */
export function copyBranchName(action: string, target: string, number: number): string {
  return `yardmaster/${action === "backport" ? "bp" : "copy"}/${target}/pr-${number}`;
}

/** The commit message squash writes (`commit_message`: all-commits, first-commit, title+body). */
function squashMessage(pr: PullRequestSnapshot, mode: unknown): string {
  const own = pr.commits.filter((c) => c.parents.length <= 1);
  if (mode === "first-commit" && own.length > 0) return own[0].message;
  if (mode === "title+body") return `${pr.title} (#${pr.number})\n\n${pr.body}`.trimEnd();
  return [`${pr.title} (#${pr.number})`, ...own.map((c) => `* ${c.message.trimEnd()}`)].join("\n\n");
}

/**
 * Performs a git action; its events.
 * @throws ForgeError (the caller turns a refusal into the event's error, retries a transient one)
 */
export async function performBranchAction(
  deps: ActionDeps,
  effect: RuleActionEffect,
  pr: PullRequestSnapshot,
  type: string,
): Promise<ActionEvent[]> {
  const { forge, repository: repo } = deps;
  const o = effect.options;
  const n = effect.number;
  switch (effect.action) {
    case "merge": {
      if (pr.state === "merged") return [{ type, metadata: { branch: pr.base } }];
      if (pr.state !== "open") throw new ForgeError("invalid", `pull request #${n} is closed`);
      if (o.allow_merging_configuration_change !== true && pr.files.some((f) => CONFIG_FILES.includes(f)))
        throw new ForgeError(
          "invalid",
          "the pull request changes the configuration file (allow_merging_configuration_change)",
        );
      const [title, ...rest] =
        typeof o.commit_message_template === "string" ? o.commit_message_template.split("\n") : [];
      await forge.mergePullRequest(repo, n, {
        method: (o.method as MergeMethod | null | undefined) ?? null,
        expectedHeadSha: pr.headSha,
        commitTitle: title?.trim() || undefined,
        commitMessage: title === undefined ? undefined : rest.join("\n").trim(),
      });
      return [{ type, metadata: { branch: pr.base } }];
    }
    case "update":
    case "rebase": {
      if (pr.state !== "open") throw new ForgeError("invalid", `pull request #${n} is ${pr.state}`);
      if (pr.commitsBehind > 0)
        await forge.updatePullRequestWithBase(repo, n, effect.action === "update" ? "merge" : "rebase");
      return [{ type, metadata: {} }];
    }
    case "squash": {
      if (pr.state !== "open") throw new ForgeError("invalid", `pull request #${n} is ${pr.state}`);
      await forge.squashPullRequest(repo, n, { message: squashMessage(pr, o.commit_message) });
      return [{ type, metadata: {} }];
    }
    case "delete_head_branch": {
      if (pr.state === "open") throw new ForgeError("invalid", `pull request #${n} is still open`);
      if (pr.fromFork) throw new ForgeError("invalid", `the head of #${n} is in a fork`);
      if ((await forge.getDefaultBranch(repo)) === pr.head)
        throw new ForgeError("invalid", `${pr.head} is the default branch`);
      const dependents = await forge.listOpenPullRequests(repo, { base: pr.head });
      if (dependents.length > 0 && o.force !== true)
        throw new ForgeError(
          "invalid",
          `${pr.head} is the base of ${dependents.map((p) => `#${p.number}`).join(", ")} (force: true deletes it anyway)`,
        );
      await forge.deleteBranch(repo, pr.head);
      return [{ type, metadata: { branch: pr.head } }];
    }
    case "backport":
    case "copy": {
      const events: ActionEvent[] = [];
      for (const target of (Array.isArray(o.branches) ? o.branches : []).map(String)) {
        try {
          events.push({ type, metadata: await copyTo(deps, effect, pr, target) });
        } catch (e) {
          if (isRetryable(e) || !isForgeError(e)) throw e;
          const conflicts = e.kind === "conflict";
          events.push({ type, metadata: { to: target, pull_request_number: 0, conflicts, error: e.message } });
        }
      }
      return events;
    }
    default:
      throw new ForgeError("invalid", `unknown action ${effect.action}`);
  }
}

/** Cherry-picks the pull request's commits onto `target` and opens (or finds) the copy's pull request. */
async function copyTo(
  deps: ActionDeps,
  effect: RuleActionEffect,
  pr: PullRequestSnapshot,
  target: string,
): Promise<Record<string, unknown>> {
  const { forge, repository: repo } = deps;
  const o = effect.options;
  const branch = copyBranchName(effect.action, target, pr.number);
  const labels = Array.isArray(o.labels) ? o.labels.map(String) : [];
  const assignees = loginsOf(o.assignees, pr);
  const existing = deps.resumed ? await forge.findOpenPullRequest(repo, branch, target) : null;
  if (existing !== null) {
    // Opened by an earlier attempt, which may have stopped before its labels and assignees (both
    // sets: setting them again is harmless). Whether that attempt conflicted is not known any more.
    await labelAndAssign(deps, existing, labels, assignees);
    return { to: target, pull_request_number: existing, conflicts: false };
  }
  const commits = pr.commits.filter((c) => c.parents.length <= 1).map((c) => c.sha);
  const picked = await forge.cherryPick(repo, {
    commits,
    onto: target,
    branch,
    allowConflicts: o.ignore_conflicts !== false,
  });
  const rendered = ((o.targets as Record<string, Record<string, unknown>> | undefined) ?? {})[target] ?? o;
  const number = await forge.createPullRequest(repo, {
    head: branch,
    base: target,
    title: String(rendered.title ?? pr.title),
    body: String(rendered.body ?? ""),
  });
  await failpoint(FAILPOINT_NAMES.copyPullOpened(effect.action));
  if (picked.conflicts.length > 0 && typeof o.label_conflicts === "string") labels.push(o.label_conflicts);
  await labelAndAssign(deps, number, labels, assignees);
  return { to: target, pull_request_number: number, conflicts: picked.conflicts.length > 0 };
}

/** Adds `labels` and `assignees` (none: no call) to the copy's pull request `number`. */
async function labelAndAssign(deps: ActionDeps, number: number, labels: string[], assignees: string[]) {
  if (labels.length > 0) await deps.forge.addLabels(deps.repository, number, labels);
  if (assignees.length > 0) await deps.forge.setAssignees(deps.repository, number, { add: assignees, remove: [] });
}
