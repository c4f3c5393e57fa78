/**
 * The code hosting platform port: what the queue engine and the simulator need from GitHub or from
 * the local forge, and nothing else. Both adapters (local/, github/) implement {@link ForgePort},
 * so the engine cannot tell them apart. Times are `Date` in UTC; numbers are pull request numbers
 * (positive integers below 2^53 in practice; the interface carries them as `number`).
 */

// The pull request's facts are the configuration language's input; the port speaks them too.
export type {
  CheckRun,
  CheckState,
  CommitInfo,
  Permission,
  PullRequestSnapshot,
  RepoName,
  Review,
  ReviewState,
  Sha,
} from "../config/index.js";
import type { CheckState, Permission, PullRequestSnapshot, RepoName, Sha } from "../config/index.js";

// The errors of the port (forge-errors.ts).
export {
  FORGE_ERROR_KINDS,
  ForgeError,
  type ForgeErrorKind,
  isForgeError,
  type MergeRefusal,
  MergeRefusedError,
} from "./forge-errors.js";

// The events the forges report are the port's too (forge-events.ts).
export type { ForgeEvent, ForgeEventSink } from "./forge-events.js";
export type {
  PullRequestHead,
  ReconciliationFacts,
  ReconciliationPort,
  RequestBudget,
} from "./reconciliation-port.js";
import type { ReconciliationPort } from "./reconciliation-port.js";

// What a batch's landing asks of a forge (landing-requests.ts).
import type { BatchMergeRequest, MergeMethod, SpeculativeBranchOptions } from "./landing-requests.js";
export type { BatchMergeRequest, MergeMethod, SpeculativeBranchOptions };

// The repositories a forge knows (repository-directory.ts).
export type { ForgeRepository, RepositoryDirectory } from "./repository-directory.js";

/** Yardmaster's own check run on a pull request (the queue summary). */
export interface CheckRunInput {
  name: string;
  headSha: Sha;
  status: "queued" | "in_progress" | "completed";
  conclusion: CheckState | null;
  title: string;
  summary: string;
  /** First post of this run on this head (not resumed): created without a lookup; the latest run of a name shows. */
  fresh?: boolean;
}

/**
 * A deployment of Yardmaster's own on a commit: merge protections with `reporting_method:
 * deployments` (docs/merge-protections.md "`merge_protections_settings`"). `description` is shown next to the state
 * (GitHub keeps 140 characters).
 */
export interface DeploymentInput {
  environment: string;
  sha: Sha;
  state: "success" | "failure" | "pending";
  description: string;
}

/**
 * What the actions of `pull_request_rules` ask of a code hosting platform beyond the queue's needs
 * (docs/workflow-automation.md). Every method acts as the forge's bot (the GitHub App, the local
 * forge's bot user), is safe to call again with the same input (a set, not an addition, except
 * submitReview and createPullRequest, whose callers look first), and throws {@link ForgeError} only.
 */
export interface WorkflowActionsPort {
  /** Adds and removes assignees (logins). */
  setAssignees(repo: RepoName, number: number, input: { add: string[]; remove: string[] }): Promise<void>;
  /** Requests reviews from users and teams (`org/team` or `team`); invalid where teams do not exist. */
  requestReviews(repo: RepoName, number: number, input: { users: string[]; teams: string[] }): Promise<void>;
  /** Submits a review of the head as the bot. */
  submitReview(
    repo: RepoName,
    number: number,
    input: { event: "APPROVE" | "REQUEST_CHANGES" | "COMMENT"; body: string },
  ): Promise<void>;
  /**
   * Dismisses the reviews in `states` (APPROVED, CHANGES_REQUESTED) with `message`.
   * @returns the logins whose reviews were dismissed
   */
  dismissReviews(
    repo: RepoName,
    number: number,
    input: { states: ("APPROVED" | "CHANGES_REQUESTED")[]; message: string },
  ): Promise<string[]>;
  /** Converts to draft (true) or marks ready for review (false). */
  setDraft(repo: RepoName, number: number, draft: boolean): Promise<void>;
  /**
   * Squashes the head's commits into one with `message`, on the merge base with the base branch.
   * @returns the new head SHA (unchanged when already one commit)
   */
  squashPullRequest(repo: RepoName, number: number, input: { message: string }): Promise<Sha>;
  /**
   * Creates (or force-moves) `branch` to the tip of `onto` with `commits` cherry-picked in order.
   * With `allowConflicts`, commits that do not apply are committed with conflict markers and the
   * conflicting paths returned; otherwise conflict.
   */
  cherryPick(
    repo: RepoName,
    input: { commits: Sha[]; onto: string; branch: string; allowConflicts: boolean },
  ): Promise<{ sha: Sha; conflicts: string[] }>;
  /** Opens a pull request (not a draft) from `head` into `base`; returns its number. */
  createPullRequest(
    repo: RepoName,
    input: { head: string; base: string; title: string; body: string },
  ): Promise<number>;
  /**
   * Runs a workflow at `ref` (GitHub: workflow_dispatch of `workflow` with `inputs`; local forge:
   * its CI at that ref, `workflow` being a check `.yardmaster/ci.yml` declares).
   */
  dispatchWorkflow(
    repo: RepoName,
    input: { workflow: string; ref: string; inputs: Record<string, string | number | boolean> },
  ): Promise<void>;
}

/** Which open pull requests {@link ForgePort.listOpenPullRequests} reads: every field given must match. */
export interface OpenPullFilter {
  /** The head commit's SHA. */
  headSha?: Sha;
  /** The base branch's name. */
  base?: string;
}

/**
 * What the engine and the simulator may ask of a code hosting platform.
 * Every method throws {@link ForgeError} and nothing else.
 */
export interface ForgePort extends WorkflowActionsPort, ReconciliationPort {
  /** Reads one pull request with all condition attributes. not_found when absent. */
  getPullRequest(repo: RepoName, number: number): Promise<PullRequestSnapshot>;
  /**
   * Open pull requests, oldest first; with `only`, those whose head is at `headSha` and/or whose
   * base is `base`, selected before any snapshot is built (one snapshot costs several git commands
   * or API calls, so a caller that wants a few pull requests must not read them all).
   */
  listOpenPullRequests(repo: RepoName, only?: OpenPullFilter): Promise<PullRequestSnapshot[]>;
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
   * `.github/yardmaster.yml`), with the path it was read from and a SHA naming the version read
   * (the local forge: the branch's tip commit; GitHub: the file's blob); null when there is none.
   */
  readConfigFile(repo: RepoName): Promise<{ path: string; text: string; sha: Sha } | null>;
  /** A file at a ref; null when absent. */
  readFile(repo: RepoName, ref: string, path: string): Promise<string | null>;
  /** The SHA a branch points at; not_found when the branch does not exist. */
  getBranchSha(repo: RepoName, branch: string): Promise<Sha>;
  /**
   * Creates (or force-moves) `branch` to a commit whose tree is `baseSha` with the heads of `pulls`
   * merged in, in order. The local forge writes one merge commit each ("Merge of #n"); GitHub
   * writes one commit whose parents are the base and the heads, or a linear replay where the
   * landing needs one (docs/github.md "Speculative branches"). conflict names the first pull
   * request that does not merge.
   */
  createSpeculativeBranch(
    repo: RepoName,
    branch: string,
    baseSha: Sha,
    pulls: { number: number; headSha: Sha }[],
    options?: SpeculativeBranchOptions,
  ): Promise<Sha>;
  /**
   * Attaches `text` as the git note of commit `sha` under each notes ref of `refs`
   * (`refs/notes/...`), replacing the note that commit had there; other commits' notes stay. The
   * queue's batch metadata for CI (docs/merge-queue.md "Batch metadata for CI"). A forge that
   * cannot hold notes leaves it out.
   */
  addNotes?(repo: RepoName, input: { refs: string[]; sha: Sha; text: string }): Promise<void>;
  /** Deletes a branch; no error when already absent. */
  deleteBranch(repo: RepoName, branch: string): Promise<void>;
  /** Opens a draft pull request from `head` into `base`; returns its number. */
  openDraftPullRequest(
    repo: RepoName,
    input: { head: string; base: string; title: string; body: string },
  ): Promise<number>;
  /** Edits title/body of a pull request. */
  updatePullRequest(repo: RepoName, number: number, input: { title?: string; body?: string }): Promise<void>;
  /** Closes a pull request without merging. */
  closePullRequest(repo: RepoName, number: number): Promise<void>;
  /** Brings a pull request's head up to date with its base (merge or rebase); returns the new head SHA. conflict when it does not apply. */
  updatePullRequestWithBase(repo: RepoName, number: number, method: "merge" | "rebase"): Promise<Sha>;
  /**
   * Merges a pull request with a method (null: the repository's default, the first method it
   * allows; the local forge's is merge); returns the new base tip SHA. `expectedHeadSha` guards
   * against a push after the checks ran (conflict when it moved). fast-forward moves base to head.
   */
  mergePullRequest(
    repo: RepoName,
    number: number,
    input: { method: MergeMethod | null; expectedHeadSha: Sha; commitTitle?: string; commitMessage?: string },
  ): Promise<Sha>;
  /**
   * Merges a tested batch into `base`: the pull requests in order, one method, starting from
   * `expectedBaseSha` (conflict when the base is elsewhere, or a pull request does not apply, or a
   * head moved from its `headSha`). The local forge builds every commit and moves the base once
   * (atomic); GitHub lands it the way the branch's protection accepts (docs/github.md "Landing a
   * batch"). "merge-batch" merges the check branch at `checkSha` instead (one merge commit for the
   * batch); "fast-forward" moves the base to `checkSha` when given. Returns the new base tip and
   * each pull request's merge commit (merge, squash), last replayed commit (rebase) or head
   * (fast-forward). A refusal that is not a conflict of the code is a {@link MergeRefusedError}.
   */
  mergePullRequests(
    repo: RepoName,
    input: BatchMergeRequest,
  ): Promise<{ newBaseSha: Sha; mergeCommits: Record<number, Sha> }>;
  /** Moves a branch to a SHA that must descend from its current tip (fast-forward only); conflict otherwise. */
  fastForwardBranch(repo: RepoName, branch: string, sha: Sha): Promise<void>;
  /**
   * Runs the named checks (CI jobs) of commit `headSha` again, on `branch` (the branch the commit
   * is checked for: a draft's, a pull request's head). GitHub: Actions' re-run of the failed jobs
   * of each workflow run holding a failed check run of one of those names on the commit
   * (`POST /repos/{owner}/{repo}/actions/runs/{run_id}/rerun-failed-jobs`, permission "Actions:
   * write"); local forge: the commit's CI job again (every check of `.yardmaster/ci.yml` there).
   * not_found when none of those checks ran on the commit.
   */
  rerunChecks(repo: RepoName, input: { headSha: Sha; branch: string; checks: string[] }): Promise<void>;
  /** Creates or updates (by name and head SHA) a check run of Yardmaster's own. */
  upsertCheckRun(repo: RepoName, input: CheckRunInput): Promise<void>;
  /**
   * Creates (once per environment and SHA) a deployment of Yardmaster's own and sets its state.
   * A forge without deployments (the local forge) leaves it out; its callers post a check run instead.
   */
  upsertDeployment?(repo: RepoName, input: DeploymentInput): Promise<void>;
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
   * What the base branch's protection requires (docs/domain.md §2.5), injected into queue
   * rules' conditions by `branch_protection_injection_mode`. GitHub: the branch protection's
   * required status checks, required approvals and conversation resolution. Local forge: the
   * checks `.yardmaster/ci.yml` declares on that branch (the local CI is the required CI); no
   * required reviews.
   */
  getBranchProtection(
    repo: RepoName,
    branch: string,
  ): Promise<{
    requiredChecks: string[];
    requiredApprovals: number;
    requireConversationResolution: boolean;
    /** What the rules come from, shown next to the injected conditions; absent: GitHub's branch protection. */
    description?: string;
  }>;
  /** The permission of a user on the repository (for commands_restrictions). */
  getPermission(repo: RepoName, login: string): Promise<Permission>;
}
