/**
 * Performing one action of a pull request rule through the forge port
 * (docs/workflow-automation.md "Actions"), and the activity log event that reports it. The pull
 * request is read again first: an action acts on the forge as it is now. Every action is safe to
 * perform again after a crash (`resumed`): set-like writes (labels, assignees, reviewers, draft,
 * check runs) are performed again as they are; comments carry their idempotency key in a hidden
 * marker looked for first; reviews are not submitted twice when the bot's review of that type is
 * already there since the first attempt; branch actions read the forge first (branch-actions.ts).
 *
 * Errors: a transient or rate-limited forge error is thrown (the effect is retried later); any
 * other refusal becomes the event's `error` (outcome failure) and never stops other actions.
 */
import { isForgeError } from "../../forge/index.js";
import { effectMarker } from "../effect-executor.js";
import { isRetryable } from "../effect-journal.js";
import { performBranchAction } from "./branch-actions.js";
import { loginsOf, type ActionDeps, type ActionEvent } from "./action-deps.js";
import type { RuleActionEffect } from "./effect.js";
import { pickReviewers } from "./reviewers.js";

const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
const EVENT_TYPES: Record<string, string> = { github_actions: "action.host_actions" };

/**
 * Performs `effect`; returns its events (one, or one per target branch for backport and copy).
 * @throws ForgeError transient / rate_limited (to retry)
 */
export async function performRuleAction(deps: ActionDeps, effect: RuleActionEffect): Promise<ActionEvent[]> {
  const type = EVENT_TYPES[effect.action] ?? `action.${effect.action}`;
  if (effect.error !== null) return [{ type, metadata: { ...emptyMetadata(effect), error: effect.error } }];
  try {
    return await act(deps, effect, type);
  } catch (e) {
    if (isRetryable(e)) throw e;
    if (!isForgeError(e)) throw e;
    return [{ type, metadata: { ...emptyMetadata(effect), error: e.message } }];
  }
}

async function act(deps: ActionDeps, effect: RuleActionEffect, type: string): Promise<ActionEvent[]> {
  const { forge, repository: repo } = deps;
  const o = effect.options;
  const n = effect.number;
  // Read only for the actions that look at the pull request (a comment, a close, a posted check
  // or a dispatch do not): each read is requests on GitHub (docs/github.md "Request budget").
  const read = () => forge.getPullRequest(repo, n);
  const one = (metadata: Record<string, unknown>) => [{ type, metadata }];
  switch (effect.action) {
    case "label": {
      const pr = await read();
      const have = new Set(pr.labels.map((l) => l.name.toLowerCase()));
      const added = list(o.add).filter((l) => deps.resumed || !have.has(l.toLowerCase()));
      const removed = list(o.remove).filter((l) => deps.resumed || have.has(l.toLowerCase()));
      if (added.length) await forge.addLabels(repo, n, added);
      if (removed.length) await forge.removeLabels(repo, n, removed);
      return one({ added, removed });
    }
    case "comment": {
      const message = String(o.message ?? "");
      if (message.trim() === "") return one({ message, error: "comment: the message is empty" });
      await commentOnce(deps, effect, message);
      return one({ message });
    }
    case "close": {
      const message = String(o.message ?? "");
      await forge.closePullRequest(repo, n);
      if (message.trim() !== "") await commentOnce(deps, effect, message);
      return one({ message });
    }
    case "assign": {
      const pr = await read();
      const add = [...loginsOf(o.users, pr), ...loginsOf(o.add_users, pr)];
      const remove = loginsOf(o.remove_users, pr);
      await forge.setAssignees(repo, n, { add, remove });
      return one({ added: add, removed: remove });
    }
    case "edit": {
      if (typeof o.draft !== "boolean") return one({ draft: (await read()).draft });
      await forge.setDraft(repo, n, o.draft);
      return one({ draft: o.draft });
    }
    case "request_reviews": {
      const chosen = pickReviewers(o, await read(), effect.key);
      await forge.requestReviews(repo, n, chosen);
      return one({ reviewers: chosen.users, team_reviewers: chosen.teams });
    }
    case "review": {
      const reviewType = (o.type as "APPROVE" | "REQUEST_CHANGES" | "COMMENT" | undefined) ?? "APPROVE";
      const message = o.message == null ? null : String(o.message);
      const state = { APPROVE: "APPROVED", REQUEST_CHANGES: "CHANGES_REQUESTED", COMMENT: "COMMENTED" }[reviewType];
      const since = deps.startedAt?.getTime() ?? Number.POSITIVE_INFINITY;
      const done =
        deps.resumed &&
        (await read()).reviews.some((r) => r.state === state && r.submittedAt.getTime() >= since - 1000);
      if (!done) await forge.submitReview(repo, n, { event: reviewType, body: message ?? "" });
      return one({ review_type: reviewType, reviewer: null, message });
    }
    case "dismiss_reviews": {
      const states: ("APPROVED" | "CHANGES_REQUESTED")[] = [];
      if (o.approved !== false && o.approved !== undefined) states.push("APPROVED");
      if (o.changes_requested !== false && o.changes_requested !== undefined) states.push("CHANGES_REQUESTED");
      const message = o.message == null ? "Pull request has been modified." : String(o.message);
      const users = states.length ? await forge.dismissReviews(repo, n, { states, message }) : [];
      return one({ users });
    }
    case "post_check": {
      const conclusion = o.conclusion as "success" | "failure" | "neutral";
      const title = String(o.title ?? "");
      const summary = String(o.summary ?? "");
      await forge.upsertCheckRun(repo, {
        name: String(o.name),
        headSha: String(o.headSha),
        status: "completed",
        conclusion,
        title,
        summary,
      });
      return one({ conclusion, title, summary });
    }
    case "github_actions": {
      const events: ActionEvent[] = [];
      const dispatches = ((o.workflow as { dispatch?: unknown[] } | undefined)?.dispatch ?? []) as {
        workflow: string;
        ref?: string | null;
        inputs?: Record<string, string | number | boolean>;
      }[];
      for (const d of dispatches) {
        const ref = d.ref ?? (await forge.getDefaultBranch(repo));
        const inputs = d.inputs ?? {};
        try {
          await forge.dispatchWorkflow(repo, { workflow: d.workflow, ref, inputs });
          events.push({ type, metadata: { workflow: d.workflow, inputs } });
        } catch (e) {
          if (isRetryable(e) || !isForgeError(e)) throw e;
          events.push({ type, metadata: { workflow: d.workflow, inputs, error: e.message } });
        }
      }
      return events;
    }
    default:
      return performBranchAction(deps, effect, await read(), type);
  }
}

/** Posts `message` once: a resume first looks for the effect's marker. */
async function commentOnce(deps: ActionDeps, effect: RuleActionEffect, message: string): Promise<void> {
  const marker = effectMarker(effect.key);
  if (deps.resumed && (await deps.forge.findOwnComment(deps.repository, effect.number, marker)) !== null) return;
  await deps.forge.comment(deps.repository, effect.number, `${message}\n\n${marker}`);
}

/** The metadata of an action's event when it was not performed (every field the proto requires). */
function emptyMetadata(effect: RuleActionEffect): Record<string, unknown> {
  const o = effect.options;
  switch (effect.action) {
    case "label":
      return { added: [], removed: [] };
    case "assign":
      return { added: [], removed: [] };
    case "comment":
    case "close":
      return { message: String(o.message ?? "") };
    case "edit":
      return { draft: o.draft === true };
    case "request_reviews":
      return { reviewers: [], team_reviewers: [] };
    case "review":
      return { review_type: o.type ?? "APPROVE", reviewer: null, message: o.message ?? null };
    case "dismiss_reviews":
      return { users: [] };
    case "post_check":
      return { conclusion: o.conclusion ?? null, title: String(o.title ?? ""), summary: String(o.summary ?? "") };
    case "backport":
    case "copy":
      return { to: "", pull_request_number: 0, conflicts: false };
    case "merge":
      return { branch: effect.baseRef };
    case "delete_head_branch":
      return { branch: "" };
    case "github_actions":
      return { workflow: "", inputs: {} };
    default:
      return {};
  }
}
