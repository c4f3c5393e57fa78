/**
 * Builds the attribute values conditions read (docs/domain.md §2.2) from a pull request as
 * the forge reports it and from what only the queue knows (position, queue name, sender of a
 * command...). docs/conditions.md "Attributes" lists where each value comes from.
 */
import { isFailureCheckState } from "./check-states.js";
import type { CheckRun, Permission, PullRequestSnapshot } from "./pull-request-facts.js";
import type { AttributeValue, CommitAttributes, PullRequestAttributes } from "./context.js";

/** What the queue (or the command being handled) knows about the pull request. All optional. */
export interface QueueContext {
  /** Queue rule the pull request is queued with; null when not queued. */
  queueName?: string | null;
  /** 0 for the head of the queue; -1 (default) when not queued. */
  queuePosition?: number;
  queuedAt?: Date | null;
  /** When the queue started checking the pull request (speculative check or in place). */
  queueMergeStartedAt?: Date | null;
  /** Author of the command being evaluated (commands_restrictions). */
  sender?: string | null;
  senderPermission?: Permission | null;
  /** Dequeue code of the last exit (upper case, e.g. "CHECKS_FAILED"); default "NONE" (never queued). */
  dequeueReason?: string | null;
  /** Scopes of the pull request (scopes section). */
  scopes?: readonly string[];
  /** Pull requests named by `Depends-On:` lines that are merged, as "owner/repo#N". */
  mergedDependencies?: readonly string[];
  /** The pull request changes the configuration file; default: computed from its files. */
  configurationChanged?: boolean;
  /** The platform's review decision (GitHub only). */
  reviewDecision?: "APPROVED" | "CHANGES_REQUESTED" | "REVIEW_REQUIRED" | null;
  deploymentsSucceeded?: readonly string[];
  deploymentsFailed?: readonly string[];
  /** Values of the injected github-* booleans (branch protection); default false. */
  branchProtection?: Partial<
    Record<
      | "github-require-review-from-specific-teams"
      | "github-code-owner-review-satisfied"
      | "github-review-approved"
      | "github-require-last-push-approval",
      boolean
    >
  >;
}

/** The configuration file names (docs/configuration.md). */
export const CONFIGURATION_FILES: readonly string[] = [".yardmaster.yml", ".github/yardmaster.yml"];

const OWN_CHECK_APP = "yardmaster";

function checkNames(checks: readonly CheckRun[], accept: (state: string) => boolean): string[] {
  return checks.filter((c) => accept(c.state)).map((c) => c.name);
}

/** Latest review per user, COMMENTED reviews kept apart (a comment does not undo an approval). */
function consolidateReviews(snapshot: PullRequestSnapshot): { decisive: Map<string, string>; commented: string[] } {
  const decisive = new Map<string, string>();
  const commented = new Map<string, true>();
  const ordered = [...snapshot.reviews].sort((a, b) => a.submittedAt.getTime() - b.submittedAt.getTime());
  for (const r of ordered) {
    if (r.state === "COMMENTED") commented.set(r.author, true);
    else decisive.set(r.author, r.state);
  }
  return { decisive, commented: [...commented.keys()] };
}

function reviewers(decisive: Map<string, string>, state: string): string[] {
  return [...decisive].filter(([, s]) => s === state).map(([user]) => user);
}

const DEPENDABOT_FIELD = /^\s*-?\s*(dependency-name|dependency-type|update-type):\s*(\S.*?)\s*$/gm;

function dependabot(snapshot: PullRequestSnapshot): Record<string, string[]> {
  const out: Record<string, string[]> = { "dependency-name": [], "dependency-type": [], "update-type": [] };
  for (const c of snapshot.commits) for (const m of c.message.matchAll(DEPENDABOT_FIELD)) out[m[1]].push(m[2]);
  return out;
}

function coAuthors(snapshot: PullRequestSnapshot): string[] {
  const found = new Set<string>();
  for (const c of snapshot.commits) {
    if (c.parents.length > 1) continue;
    for (const m of c.message.matchAll(/^co-authored-by:\s*(.+?)\s*$/gim)) found.add(m[1]);
  }
  return [...found];
}

function commitAttributes(snapshot: PullRequestSnapshot): CommitAttributes[] {
  return snapshot.commits.map((c) => ({
    author: c.author,
    committer: c.committer,
    commit_message: c.message,
    email_author: null,
    email_committer: null,
    commit_verification_verified: c.verified,
    date_author: c.date,
    date_committer: c.date,
  }));
}

/**
 * The attribute values of a pull request.
 * @param snapshot the pull request as read from the forge
 * @param queue what the queue knows (defaults: not queued, no sender, dequeue reason "NONE")
 */
export function attributesOf(snapshot: PullRequestSnapshot, queue: QueueContext = {}): PullRequestAttributes {
  const checks = snapshot.checks.filter((c) => c.app !== OWN_CHECK_APP);
  const { decisive, commented } = consolidateReviews(snapshot);
  const deps = dependabot(snapshot);
  const [, repoName = snapshot.repository] = snapshot.repository.split("/");
  const protection = queue.branchProtection ?? {};
  const values: Record<string, AttributeValue> = {
    draft: snapshot.draft,
    merged: snapshot.state === "merged",
    closed: snapshot.state !== "open",
    locked: snapshot.locked,
    conflict: snapshot.conflict,
    "linear-history": snapshot.commits.every((c) => c.parents.length <= 1),
    "from-fork": snapshot.fromFork,
    "yardmaster-configuration-changed":
      queue.configurationChanged ?? snapshot.files.some((f) => CONFIGURATION_FILES.includes(f)),
    "github-require-review-from-specific-teams": protection["github-require-review-from-specific-teams"] ?? false,
    "github-code-owner-review-satisfied": protection["github-code-owner-review-satisfied"] ?? false,
    "github-review-approved": protection["github-review-approved"] ?? false,
    "github-require-last-push-approval": protection["github-require-last-push-approval"] ?? false,
    number: snapshot.number,
    "queue-position": queue.queuePosition ?? -1,
    author: snapshot.author.login,
    "merged-by": snapshot.mergedBy,
    "merge-commit-sha": snapshot.mergeCommitSha,
    milestone: snapshot.milestone,
    base: snapshot.base,
    head: snapshot.head,
    "head-repo-full-name": snapshot.headRepoFullName,
    title: snapshot.title,
    body: snapshot.body.replace(/<!--[\s\S]*?-->/g, ""),
    "body-raw": snapshot.body,
    "repository-name": repoName,
    "repository-full-name": snapshot.repository,
    "queue-name": queue.queueName ?? null,
    sender: queue.sender ?? null,
    "sender-permission": queue.senderPermission ?? null,
    "queue-dequeue-reason": queue.dequeueReason === undefined ? "NONE" : queue.dequeueReason,
    "github-review-decision": queue.reviewDecision ?? null,
    label: snapshot.labels.map((l) => l.name),
    assignee: [...snapshot.assignees],
    "review-requested": [
      ...snapshot.requestedReviewers,
      ...snapshot.requestedTeams.map((t) => (t.startsWith("@") ? t : `@${t}`)),
    ],
    "approved-reviews-by": reviewers(decisive, "APPROVED"),
    "dismissed-reviews-by": reviewers(decisive, "DISMISSED"),
    "changes-requested-reviews-by": reviewers(decisive, "CHANGES_REQUESTED"),
    "commented-reviews-by": commented,
    files: [...snapshot.files],
    "added-files": [...snapshot.addedFiles],
    "modified-files": [...snapshot.modifiedFiles],
    "removed-files": [...snapshot.removedFiles],
    "check-success": checkNames(checks, (s) => s === "success"),
    "check-failure": checkNames(checks, isFailureCheckState),
    "check-neutral": checkNames(checks, (s) => s === "neutral"),
    "check-skipped": checkNames(checks, (s) => s === "skipped"),
    "check-cancelled": checkNames(checks, (s) => s === "cancelled"),
    "check-timed-out": checkNames(checks, (s) => s === "timed_out"),
    "check-pending": checkNames(checks, (s) => s === "pending"),
    "check-stale": checkNames(checks, (s) => s === "stale"),
    check: checks.map((c) => c.name),
    "commits-unverified": snapshot.commits.filter((c) => !c.verified).map((c) => c.message),
    "deployment-success": [...(queue.deploymentsSucceeded ?? [])],
    "deployment-failure": [...(queue.deploymentsFailed ?? [])],
    "review-threads-resolved": [...snapshot.reviewThreadsResolved],
    "review-threads-unresolved": [...snapshot.reviewThreadsUnresolved],
    "dependabot-dependency-name": deps["dependency-name"],
    "dependabot-dependency-type": deps["dependency-type"],
    "dependabot-update-type": deps["update-type"],
    "depends-on": [...(queue.mergedDependencies ?? [])],
    scope: [...(queue.scopes ?? [])],
    commits: snapshot.commits.map((c) => c.sha),
    "co-authors": coAuthors(snapshot),
    updates: [],
    "added-lines": [],
    "modified-lines": [],
    "deleted-lines": [],
    "commits-behind": [],
    "created-at": snapshot.createdAt,
    "updated-at": snapshot.updatedAt,
    "closed-at": snapshot.closedAt,
    "merged-at": snapshot.mergedAt,
    "queued-at": queue.queuedAt ?? null,
    "queue-merge-started-at": queue.queueMergeStartedAt ?? null,
  };
  return {
    values,
    lengths: {
      "added-lines": snapshot.addedLines,
      "deleted-lines": snapshot.deletedLines,
      "modified-lines": snapshot.addedLines + snapshot.deletedLines,
      "commits-behind": snapshot.commitsBehind,
    },
    commits: commitAttributes(snapshot),
    checks: checks.map((c) => ({ name: c.name, state: c.state, app: c.app })),
  };
}
