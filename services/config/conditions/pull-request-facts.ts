/**
 * The pull request as the conditions language reads it (docs/domain.md §2.2): its attributes,
 * checks, reviews and commits, in the shapes both forges report them (services/forge re-exports
 * these as part of its port). Times are `Date` in UTC; numbers are pull request numbers.
 */
import type { CheckState } from "./check-states.js";

/** A repository's full name, "owner/name". */
export type RepoName = string;

/** A commit SHA: 40 lowercase hex characters. */
export type Sha = string;

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
 * A pull request with every attribute the conditions language reads (docs/domain.md §2.2).
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
