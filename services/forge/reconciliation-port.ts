/**
 * What reconciliation asks of a code hosting platform (docs/github.md "Reconciliation"): cheap
 * reads that tell whether something changed without a pull request snapshot, and how much of the
 * platform's request budget is left. On GitHub each is one conditional request (a 304 when nothing
 * changed, which does not count against the primary rate limit); on the local forge a query.
 */
import type { CheckRun, RepoName, Sha } from "../config/index.js";

/** A pull request as a list shows it: enough to tell that it changed, no snapshot. */
export interface PullRequestHead {
  number: number;
  state: "open" | "closed" | "merged";
  base: string;
  headSha: Sha;
  /** When the platform last changed it (its `updated_at`, UTC). */
  updatedAt: Date;
  /** Set for a merged pull request. */
  mergeCommitSha: Sha | null;
  /** What a list shows of what the conditions read (the snapshot's fields of the same names). */
  title: string;
  body: string;
  draft: boolean;
  locked: boolean;
  /** Label names. */
  labels: string[];
  assignees: string[];
  requestedReviewers: string[];
  requestedTeams: string[];
  milestone: string | null;
}

/** What one reconciliation read answers for a repository. */
export interface ReconciliationFacts {
  /** Pull requests updated at or after the instant asked, the most recently updated first. */
  pulls: PullRequestHead[];
  /** The tip of each branch asked (null: no such branch). */
  tips: Record<string, Sha | null>;
  /** The checks of each commit asked, as {@link ReconciliationPort.getCommitChecks} gives them. */
  checks: Record<Sha, CheckRun[]>;
}

/** What is left of the platform's request budget for a repository, as its last answer said. */
export interface RequestBudget {
  limit: number;
  remaining: number;
  /** When the budget is refilled, epoch milliseconds (UTC). */
  resetAt: number;
}

/** The reads of reconciliation; every method throws ForgeError only. */
export interface ReconciliationPort {
  /**
   * In one read where the platform allows (GitHub: one GraphQL query for up to 50 pull requests,
   * 2 branches and 5 commits): the pull requests, open or closed, updated at or after `ask.since`;
   * the tips of `ask.branches`; the checks of `ask.commits`.
   */
  reconciliationFacts(
    repo: RepoName,
    ask: { since: Date; branches: readonly string[]; commits: readonly Sha[] },
  ): Promise<ReconciliationFacts>;
  /**
   * The check runs (latest per app and name) and commit statuses (latest per context) on a
   * commit, as a snapshot carries them (the platform's own checks report app "yardmaster").
   */
  getCommitChecks(repo: RepoName, sha: Sha): Promise<CheckRun[]>;
  /** The request budget of `repo` as last reported; null when unknown or unlimited. Makes no request. */
  requestBudget(repo: RepoName): RequestBudget | null;
}
