/**
 * The code hosting platform port: what the queue engine and the simulator need from GitHub or from
 * the local forge, and nothing else. Both adapters (local/, github/) implement {@link ForgePort},
 * so the engine cannot tell them apart. Times are `Date` in UTC; numbers are pull request numbers
 * (positive integers below 2^53 in practice; the interface carries them as `number`).
 */

/** A repository's full name, "owner/name". */
export type RepoName = string;

/** A commit SHA: 40 lowercase hex characters. */
export type Sha = string;

/** Conclusion or state of one check run or commit status, as the conditions language sees it. */
export type CheckState =
  | "success" | "failure" | "error" | "cancelled" | "action_required" | "timed_out"
  | "pending" | "neutral" | "skipped" | "stale";

/** One check run (or commit status) on a commit. */
export interface CheckRun {
  /** Check name as written in conditions (`check-success=test`). */
  name: string;
  state: CheckState;
  /** Short text shown next to the check. */
  description: string;
  /** Link to the run's output; null when none. */
  detailsUrl: string | null;
  /** Who posted it (app slug or "yardmaster"); own checks are excluded from conditions. */
  app: string;
  startedAt: Date | null;
  completedAt: Date | null;
}

/** The state of a submitted review (GitHub's names; a PENDING draft review is never reported). */
export type ReviewState = "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED" | "DISMISSED";

/**
 * One submitted review on a pull request: the reviewer's login, its state and when it was submitted
 * (UTC); read by `approved-reviews-by` and the other review attributes.
 */
export interface Review {
  author: string;
  state: ReviewState;
  submittedAt: Date;
}

/**
 * One commit of a pull request: `author` and `committer` are git names (GitHub: the login when a
 * name is missing), `parents` the parent SHAs, `date` the committer date (UTC).
 */
export interface CommitInfo {
  sha: Sha;
  /** First line of the message. */
  title: string;
  message: string;
  author: string;
  committer: string;
  parents: Sha[];
  /** Signature verified by the platform (local forge: always false). */
  verified: boolean;
  date: Date;
}

/** Permission of a user on the repository, lowest to highest. */
export type Permission = "none" | "read" | "triage" | "write" | "maintain" | "admin";

/**
 * A pull request with every attribute the conditions language reads (research/domain.md §2.2).
 * Lists are never null; a missing scalar is null.
 */
export interface PullRequestSnapshot {
  repository: RepoName;
  number: number;
  title: string;
  /** Body as written (HTML comments included: `body-raw`). */
  body: string;
  /** Web address of the pull request. */
  url: string;
  author: { id: number; login: string };
  /** Base branch name (`base`). */
  base: string;
  /** Head branch name (`head`). */
  head: string;
  headSha: Sha;
  /** Base branch tip SHA as seen when the snapshot was taken. */
  baseSha: Sha;
  /** `owner/name` of the repository holding the head branch. */
  headRepoFullName: RepoName;
  draft: boolean;
  state: "open" | "closed" | "merged";
  locked: boolean;
  /** True when head does not merge cleanly into base. */
  conflict: boolean;
  /** Commits on base not in head. */
  commitsBehind: number;
  labels: { id: number; name: string; color: string; default: boolean }[];
  assignees: string[];
  requestedReviewers: string[];
  requestedTeams: string[];
  reviews: Review[];
  /** Check runs and commit statuses on the head commit. */
  checks: CheckRun[];
  /** Changed file paths (renames contribute both paths). */
  files: string[];
  addedFiles: string[];
  modifiedFiles: string[];
  removedFiles: string[];
  addedLines: number;
  deletedLines: number;
  commits: CommitInfo[];
  milestone: string | null;
  mergedBy: string | null;
  mergeCommitSha: Sha | null;
  createdAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
  mergedAt: Date | null;
  fromFork: boolean;
  /** Review threads resolved / unresolved (local forge: none). */
  reviewThreadsResolved: string[];
  reviewThreadsUnresolved: string[];
}

/**
 * How a pull request is merged into its base (docs/local-forge.md "Merge methods", docs/github.md
 * §6); a batch may also use "merge-batch" (see ForgePort.mergePullRequests).
 */
export type MergeMethod = "merge" | "squash" | "rebase" | "fast-forward";

/** Errors of the port. Adapters throw only these; `kind` is a closed set. */
export type ForgeErrorKind = "not_found" | "conflict" | "permission" | "rate_limited" | "transient" | "invalid";

/**
 * The only error a {@link ForgePort} method throws: a {@link ForgeErrorKind}, a message, and for
 * rate_limited the delay before retrying (milliseconds).
 */
export class ForgeError extends Error {
  override readonly name = "ForgeError";
  /**
   * @param kind what went wrong (conflict = git conflict, or the ref moved)
   * @param message a sentence for logs and users
   * @param retryAfterMs for rate_limited: when to try again, in milliseconds
   */
  constructor(
    readonly kind: ForgeErrorKind,
    message: string,
    readonly retryAfterMs?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Whether `e` is a {@link ForgeError}, of `kind` when one is given. */
export function isForgeError(e: unknown, kind?: ForgeErrorKind): e is ForgeError {
  return e instanceof ForgeError && (kind === undefined || e.kind === kind);
}

/** Yardmaster's own check run on a pull request (the queue summary). */
export interface CheckRunInput {
  name: string;
  headSha: Sha;
  status: "queued" | "in_progress" | "completed";
  conclusion: CheckState | null;
  title: string;
  summary: string;
}

/**
 * What the engine and the simulator may ask of a code hosting platform.
 * Every method throws {@link ForgeError} and nothing else.
 */
export interface ForgePort {
  /** Reads one pull request with all condition attributes. not_found when absent. */
  getPullRequest(repo: RepoName, number: number): Promise<PullRequestSnapshot>;
  /** Open pull requests, oldest first. */
  listOpenPullRequests(repo: RepoName): Promise<PullRequestSnapshot[]>;
  /**
   * The number of the open pull request from branch `head` of the repository into `base`, or null
   * (the platform allows one). It reads no snapshot: listOpenPullRequests builds one per open pull
   * request (git commands or API calls each), which the queue paid for every draft it created.
   */
  findOpenPullRequest(repo: RepoName, head: string, base: string): Promise<number | null>;
  /** The repository's default branch name. */
  getDefaultBranch(repo: RepoName): Promise<string>;
  /**
   * The configuration file text on the default branch (`.yardmaster.yml`, then
   * `.github/yardmaster.yml`), with the path it was read from; null when there is none.
   */
  readConfigFile(repo: RepoName): Promise<{ path: string; text: string; sha: Sha } | null>;
  /** A file at a ref; null when absent. */
  readFile(repo: RepoName, ref: string, path: string): Promise<string | null>;
  /** The SHA a branch points at; not_found when the branch does not exist. */
  getBranchSha(repo: RepoName, branch: string): Promise<Sha>;
  /**
   * Creates (or force-moves) `branch` to a new commit made of `baseSha` with the heads of
   * `pulls` merged in, in order (one merge commit each, message "Merge of #n").
   * conflict names the first pull request that does not merge.
   */
  createSpeculativeBranch(repo: RepoName, branch: string, baseSha: Sha, pulls: { number: number; headSha: Sha }[]): Promise<Sha>;
  /** Deletes a branch; no error when already absent. */
  deleteBranch(repo: RepoName, branch: string): Promise<void>;
  /** Opens a draft pull request from `head` into `base`; returns its number. */
  openDraftPullRequest(repo: RepoName, input: { head: string; base: string; title: string; body: string }): Promise<number>;
  /** Edits title/body of a pull request. */
  updatePullRequest(repo: RepoName, number: number, input: { title?: string; body?: string }): Promise<void>;
  /** Closes a pull request without merging. */
  closePullRequest(repo: RepoName, number: number): Promise<void>;
  /** Brings a pull request's head up to date with its base (merge or rebase); returns the new head SHA. conflict when it does not apply. */
  updatePullRequestWithBase(repo: RepoName, number: number, method: "merge" | "rebase"): Promise<Sha>;
  /**
   * Merges a pull request with a method; returns the new base tip SHA. `expectedHeadSha` guards
   * against a push after the checks ran (conflict when it moved). fast-forward moves base to head.
   */
  mergePullRequest(repo: RepoName, number: number, input: { method: MergeMethod; expectedHeadSha: Sha; commitTitle?: string; commitMessage?: string }): Promise<Sha>;
  /**
   * Merges a tested batch into `base`: the pull requests in order, one method, starting from
   * `expectedBaseSha` (conflict when the base is elsewhere, or a pull request does not apply, or a
   * head moved from its `headSha`). The local forge builds every commit and moves the base once
   * (atomic); GitHub merges one pull request at a time (docs/github.md). "merge-batch" merges the
   * check branch at `checkSha` instead (one merge commit for the batch). Returns the new base tip
   * and each pull request's merge commit (merge, squash), last replayed commit (rebase) or head
   * (fast-forward).
   */
  mergePullRequests(
    repo: RepoName,
    input: {
      base: string;
      expectedBaseSha: Sha;
      method: MergeMethod | "merge-batch";
      pulls: { number: number; headSha: Sha; commitTitle?: string; commitMessage?: string }[];
      checkSha?: Sha;
    },
  ): Promise<{ newBaseSha: Sha; mergeCommits: Record<number, Sha> }>;
  /** Moves a branch to a SHA that must descend from its current tip (fast-forward only); conflict otherwise. */
  fastForwardBranch(repo: RepoName, branch: string, sha: Sha): Promise<void>;
  /** Creates or updates (by name and head SHA) a check run of Yardmaster's own. */
  upsertCheckRun(repo: RepoName, input: CheckRunInput): Promise<void>;
  /** Posts a comment; returns its id. */
  comment(repo: RepoName, number: number, body: string): Promise<number>;
  /**
   * The id of the oldest comment Yardmaster itself posted on pull request `number` whose body
   * contains `text` (an effect's idempotency marker, docs/reliability.md); null when there is none.
   * not_found for an unknown pull request.
   */
  findOwnComment(repo: RepoName, number: number, text: string): Promise<number | null>;
  addLabels(repo: RepoName, number: number, labels: string[]): Promise<void>;
  removeLabels(repo: RepoName, number: number, labels: string[]): Promise<void>;
  /**
   * What the base branch's protection requires (research/domain.md §2.5), injected into queue
   * rules' conditions by `branch_protection_injection_mode`. GitHub: the branch protection's
   * required status checks, required approvals and conversation resolution. Local forge: the
   * checks `.yardmaster/ci.yml` declares on that branch (the local CI is the required CI); no
   * required reviews.
   */
  getBranchProtection(repo: RepoName, branch: string): Promise<{ requiredChecks: string[]; requiredApprovals: number; requireConversationResolution: boolean }>;
  /** The permission of a user on the repository (for commands_restrictions). */
  getPermission(repo: RepoName, login: string): Promise<Permission>;
}

/**
 * What happened on the hosting platform, as both forges report it (a GitHub webhook, or the local
 * forge's own actions). Events are triggers: whoever handles one re-reads the current state
 * through {@link ForgePort} rather than trusting the payload, so a late or repeated delivery
 * cannot make the queue act on stale facts.
 */
export type ForgeEvent =
  /** A pull request was opened or reopened. */
  | { kind: "pull_request_opened"; repo: RepoName; number: number }
  /** New commits were pushed to a pull request's head (`by`: who pushed, when known). */
  | { kind: "pull_request_synchronized"; repo: RepoName; number: number; headSha: Sha; by: string | null }
  /** Title, body, base branch or draft state changed. */
  | { kind: "pull_request_edited"; repo: RepoName; number: number }
  /** Closed without merge, or merged (by anyone, the queue included). */
  | { kind: "pull_request_closed"; repo: RepoName; number: number; merged: boolean; mergeCommitSha: Sha | null }
  /** Labels, assignees or requested reviewers changed. */
  | { kind: "pull_request_labeled"; repo: RepoName; number: number }
  /** A review was submitted or dismissed. */
  | { kind: "pull_request_reviewed"; repo: RepoName; number: number }
  /** A comment on a pull request (commands such as `@yardmaster queue` arrive this way). */
  | {
      kind: "comment_created";
      repo: RepoName;
      number: number;
      commentId: number;
      body: string;
      author: { login: string; id: number; type: "User" | "Organization" | "Bot" | "Mannequin" | "Enterprise" | null; avatarUrl: string | null };
      url: string | null;
    }
  /** A check run or commit status changed on a commit. */
  | { kind: "checks_changed"; repo: RepoName; sha: Sha }
  /** A branch moved (a push, a merge, a force-push or a deletion: `after` null). */
  | { kind: "branch_pushed"; repo: RepoName; branch: string; before: Sha | null; after: Sha | null; forced: boolean };

/**
 * Receives forge events (the queue runner in production, a recorder in tests). `key` is the
 * event's idempotency key when the forge has one (`local-forge:<id>`, `github:<delivery>:<n>`): an
 * event delivered again after a crash comes with the same key, so the receiver can take it once
 * (docs/reliability.md). A receiver that throws has not taken the event.
 */
export type ForgeEventSink = (event: ForgeEvent, key?: string) => void | Promise<void>;
