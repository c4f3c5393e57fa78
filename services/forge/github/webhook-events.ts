/**
 * GitHub webhook deliveries as forge events (services/forge/types.ts `ForgeEvent`; docs/github.md
 * "Webhooks" has the table). Events are triggers: the handler re-reads the pull request through
 * the port, so only what identifies the change is taken from the payload, and each field read is
 * checked (zod), so a malformed payload fails with an error naming the field.
 */
import { z } from "zod";
import type { ForgeEvent } from "../types.js";
import { pushCommitsFields, pushLeavesConfig } from "./push-config.js";
import type { CompletedWorkflowRun } from "./workflow-run.js";

/** Either the events a delivery stands for, a workflow run for CI Insights, or why it is ignored. */
export type WebhookMapping =
  | { kind: "events"; events: ForgeEvent[] }
  | { kind: "workflow_run"; run: CompletedWorkflowRun }
  | { kind: "ignored"; reason: string };

/** A payload that lacks a field the mapping reads; `path` names it (e.g. "pull_request.number"). */
export class WebhookPayloadError extends Error {
  override readonly name = "WebhookPayloadError";
  constructor(
    readonly event: string,
    readonly path: string,
    message: string,
  ) {
    super(`${event} payload: ${path || "(root)"}: ${message}`);
  }
}

const ZERO_SHA = /^0{40}$/;
const sha = z.string().regex(/^[0-9a-f]{40}$/, "not a 40-character commit SHA");
const repository = z.object({ full_name: z.string().regex(/^[^/\s]+\/[^/\s]+$/, "not owner/name") });
const login = z.object({ login: z.string() });

const pullRequestPayload = z.object({
  action: z.string(),
  number: z.number().int().positive(),
  repository,
  sender: login.nullish(),
  label: z.object({ name: z.string() }).nullish(),
  pull_request: z.object({
    head: z.object({ sha, ref: z.string().nullish() }),
    merged: z.boolean().nullish(),
    merge_commit_sha: sha.nullish(),
  }),
});
const pullNumberPayload = z.object({
  action: z.string(),
  repository,
  pull_request: z.object({ number: z.number().int().positive() }),
});
const issueCommentPayload = z.object({
  action: z.string(),
  repository,
  issue: z.object({ number: z.number().int().positive(), pull_request: z.object({}).passthrough().nullish() }),
  comment: z.object({
    id: z.number().int().positive(),
    body: z.string().nullish(),
    html_url: z.string().nullish(),
    user: z
      .object({ login: z.string(), id: z.number().int(), type: z.string().nullish(), avatar_url: z.string().nullish() })
      .nullish(),
  }),
});
const app = z.object({ id: z.number().int() }).nullish();
const checkRunPayload = z.object({ action: z.string(), repository, check_run: z.object({ head_sha: sha, app }) });
const checkSuitePayload = z.object({ action: z.string(), repository, check_suite: z.object({ head_sha: sha, app }) });
const statusPayload = z.object({ repository, sha });
const workflowRunPayload = z.object({
  action: z.string(),
  repository,
  workflow_run: z.object({
    id: z.number().int().positive(),
    name: z.string().nullish(),
    head_sha: sha,
    head_branch: z.string().nullish(),
    run_attempt: z.number().int().positive().nullish(),
    conclusion: z.string().nullish(),
    html_url: z.string().nullish(),
  }),
});
const pushPayload = z.object({
  repository,
  ref: z.string(),
  before: sha,
  after: sha,
  forced: z.boolean().nullish(),
  deleted: z.boolean().nullish(),
  ...pushCommitsFields,
});

function parse<S extends z.ZodType>(event: string, schema: S, payload: unknown): z.infer<S> {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new WebhookPayloadError(event, issue.path.map(String).join("."), issue.message);
}

/** pull_request actions, by the event they become (any other action is ignored). */
const PULL_ACTIONS: Record<string, "opened" | "synchronized" | "edited" | "closed" | "labeled"> = {
  opened: "opened",
  reopened: "opened",
  synchronize: "synchronized",
  edited: "edited",
  ready_for_review: "edited",
  converted_to_draft: "edited",
  locked: "edited",
  unlocked: "edited",
  milestoned: "edited",
  demilestoned: "edited",
  closed: "closed",
  labeled: "labeled",
  unlabeled: "labeled",
  assigned: "labeled",
  unassigned: "labeled",
  review_requested: "labeled",
  review_request_removed: "labeled",
};

const AUTHOR_TYPES = new Set(["User", "Organization", "Bot", "Mannequin", "Enterprise"]);
type AuthorType = Extract<ForgeEvent, { kind: "comment_created" }>["author"]["type"];

const events = (...list: ForgeEvent[]): WebhookMapping => ({ kind: "events", events: list });
const ignored = (reason: string): WebhookMapping => ({ kind: "ignored", reason });

function mapPullRequest(payload: unknown): WebhookMapping {
  const p = parse("pull_request", pullRequestPayload, payload);
  const kind = PULL_ACTIONS[p.action];
  const repo = p.repository.full_name,
    number = p.number;
  const head = p.pull_request.head.ref ? { head: p.pull_request.head.ref } : {};
  switch (kind) {
    case "opened":
      return events({ kind: "pull_request_opened", repo, number, ...head });
    case "synchronized":
      return events({
        kind: "pull_request_synchronized",
        repo,
        number,
        headSha: p.pull_request.head.sha,
        by: p.sender?.login ?? null,
        ...head,
      });
    case "edited":
      return events({ kind: "pull_request_edited", repo, number, ...head });
    case "closed": {
      const merged = p.pull_request.merged === true;
      return events({
        kind: "pull_request_closed",
        repo,
        number,
        merged,
        mergeCommitSha: merged ? (p.pull_request.merge_commit_sha ?? null) : null,
        ...head,
      });
    }
    case "labeled": {
      const label =
        p.label && (p.action === "labeled" || p.action === "unlabeled")
          ? { label: { name: p.label.name, added: p.action === "labeled" } }
          : {};
      return events({ kind: "pull_request_labeled", repo, number, ...head, ...label });
    }
    default:
      return ignored(`pull_request action "${p.action}" does not change what the queue reads`);
  }
}

function mapIssueComment(payload: unknown): WebhookMapping {
  const p = parse("issue_comment", issueCommentPayload, payload);
  if (!p.issue.pull_request) return ignored("comment on an issue, not a pull request");
  if (p.action !== "created") return ignored(`issue_comment action "${p.action}": only new comments carry commands`);
  const user = p.comment.user;
  const type = user?.type && AUTHOR_TYPES.has(user.type) ? (user.type as AuthorType) : null;
  return events({
    kind: "comment_created",
    repo: p.repository.full_name,
    number: p.issue.number,
    commentId: p.comment.id,
    body: p.comment.body ?? "",
    author: { login: user?.login ?? "ghost", id: user?.id ?? 0, type, avatarUrl: user?.avatar_url ?? null },
    url: p.comment.html_url ?? null,
  });
}

/** Conclusions of a completed run that nothing retries. */
const NOT_FAILED = new Set(["success", "neutral", "skipped", "stale", "action_required"]);

function mapWorkflowRun(payload: unknown): WebhookMapping {
  const p = parse("workflow_run", workflowRunPayload, payload);
  if (p.action !== "completed") return ignored(`workflow_run action "${p.action}": only a completed run is retried`);
  const r = p.workflow_run;
  const conclusion = r.conclusion ?? "";
  if (NOT_FAILED.has(conclusion) || conclusion === "")
    return ignored(`workflow run ${r.id} concluded ${conclusion || "without a conclusion"}: nothing to retry`);
  return {
    kind: "workflow_run",
    run: {
      repo: p.repository.full_name,
      runId: r.id,
      attempt: r.run_attempt ?? 1,
      workflow: r.name ?? "",
      headSha: r.head_sha,
      branch: r.head_branch ?? "",
      conclusion,
      url: r.html_url ?? null,
    },
  };
}

function mapPush(payload: unknown): WebhookMapping {
  const p = parse("push", pushPayload, payload);
  if (!p.ref.startsWith("refs/heads/")) return ignored(`push to ${p.ref}: not a branch`);
  const deleted = p.deleted === true || ZERO_SHA.test(p.after);
  return events({
    kind: "branch_pushed",
    repo: p.repository.full_name,
    branch: p.ref.slice("refs/heads/".length),
    before: ZERO_SHA.test(p.before) ? null : p.before,
    after: deleted ? null : p.after,
    forced: p.forced === true,
    ...(!deleted && pushLeavesConfig(p, !ZERO_SHA.test(p.before)) ? { configUnchanged: true } : {}),
  });
}

/** What the mapping knows of the App receiving the delivery. */
export interface WebhookMappingOptions {
  /**
   * The App's own id: its own check runs and check suites are ignored, since no condition reads
   * them (docs/github.md "Request budget"); each would otherwise cost the reads of a check event.
   */
  appId?: number;
}

const OWN_CHECK = "the App's own check: no condition reads it";

/**
 * Maps one delivery.
 * @param eventName the `X-GitHub-Event` header (e.g. "pull_request")
 * @param payload the parsed JSON body
 * @throws WebhookPayloadError when a field the mapping reads is missing or malformed
 */
export function mapGithubWebhook(
  eventName: string,
  payload: unknown,
  options: WebhookMappingOptions = {},
): WebhookMapping {
  switch (eventName) {
    case "pull_request":
      return mapPullRequest(payload);
    case "pull_request_review": {
      const p = parse(eventName, pullNumberPayload, payload);
      if (!["submitted", "edited", "dismissed"].includes(p.action))
        return ignored(`pull_request_review action "${p.action}"`);
      return events({ kind: "pull_request_reviewed", repo: p.repository.full_name, number: p.pull_request.number });
    }
    case "pull_request_review_thread": {
      const p = parse(eventName, pullNumberPayload, payload);
      if (!["resolved", "unresolved"].includes(p.action))
        return ignored(`pull_request_review_thread action "${p.action}"`);
      return events({ kind: "pull_request_reviewed", repo: p.repository.full_name, number: p.pull_request.number });
    }
    case "issue_comment":
      return mapIssueComment(payload);
    case "check_run": {
      const p = parse(eventName, checkRunPayload, payload);
      if (p.action === "requested_action") return ignored("check_run requested_action: a button press, not a result");
      if (options.appId !== undefined && p.check_run.app?.id === options.appId) return ignored(OWN_CHECK);
      return events({ kind: "checks_changed", repo: p.repository.full_name, sha: p.check_run.head_sha });
    }
    case "check_suite": {
      const p = parse(eventName, checkSuitePayload, payload);
      if (p.action !== "completed")
        return ignored(`check_suite action "${p.action}": its check runs report their own changes`);
      if (options.appId !== undefined && p.check_suite.app?.id === options.appId) return ignored(OWN_CHECK);
      return events({ kind: "checks_changed", repo: p.repository.full_name, sha: p.check_suite.head_sha });
    }
    case "status": {
      const p = parse(eventName, statusPayload, payload);
      return events({ kind: "checks_changed", repo: p.repository.full_name, sha: p.sha });
    }
    case "push":
      return mapPush(payload);
    case "workflow_run":
      return mapWorkflowRun(payload);
    default:
      return ignored(`event "${eventName}" is not one the queue follows`);
  }
}
