/**
 * A {@link PullRequestSnapshot} from GitHub's answers (docs/domain.md §2.2; docs/github.md
 * "Pull request attributes" gives the source of each field), and the conversions of REST answers
 * to the port's terms. Pure: read-pull.ts fetches the parts.
 */
import type { CheckRun, CommitInfo, PullRequestSnapshot, Review, ReviewState, Sha } from "../types.js";
import type { GhCommit, GhFile, GhReview } from "./github-types.js";
import type { PullFacts } from "./pull-facts.js";

/** A changed file as the REST API lists it (the fields read). */
export type FileEntry = Pick<GhFile, "filename" | "status" | "previous_filename">;

/**
 * Everything a snapshot is made of, each list already in the port's terms (read-pull.ts reads
 * them with GraphQL or REST).
 */
export interface SnapshotParts {
  repository: string;
  /** The pull request's attributes (pull-facts.ts), every label's numeric id filled in. */
  pull: PullFacts;
  files: FileEntry[];
  commits: CommitInfo[];
  reviews: Review[];
  /** Check runs (latest per app and name), then commit statuses (latest per context). */
  checks: CheckRun[];
  /** From the comparison of the base branch with the head: tip of base, commits of base not in head. */
  baseTipSha: Sha;
  commitsBehind: number;
  reviewThreads: { resolved: string[]; unresolved: string[] };
}

/**
 * Changed paths by kind (§2.2): a rename contributes both paths to `files`, the old path to
 * removed-files and the new one to added-files; a copy is an added file; a mode change modified.
 */
export function fileLists(
  files: readonly FileEntry[],
): Pick<PullRequestSnapshot, "files" | "addedFiles" | "modifiedFiles" | "removedFiles"> {
  const all: string[] = [],
    added: string[] = [],
    modified: string[] = [],
    removed: string[] = [];
  for (const f of files) {
    if (f.status === "renamed" && f.previous_filename) {
      all.push(f.previous_filename, f.filename);
      removed.push(f.previous_filename);
      added.push(f.filename);
      continue;
    }
    all.push(f.filename);
    if (f.status === "added" || f.status === "copied") added.push(f.filename);
    else if (f.status === "removed") removed.push(f.filename);
    else modified.push(f.filename);
  }
  return { files: all, addedFiles: added, modifiedFiles: modified, removedFiles: removed };
}

/** A commit of the pull request: git author and committer names, signature verification. */
export function commitInfoOf(c: GhCommit): CommitInfo {
  const message = c.commit.message;
  return {
    sha: c.sha,
    title: message.split("\n", 1)[0],
    message,
    author: c.commit.author?.name ?? c.author?.login ?? "",
    committer: c.commit.committer?.name ?? c.committer?.login ?? "",
    parents: c.parents.map((p) => p.sha),
    verified: c.commit.verification?.verified ?? false,
    date: new Date(c.commit.committer?.date ?? c.commit.author?.date ?? 0),
  };
}

const REVIEW_STATES: ReadonlySet<string> = new Set(["APPROVED", "CHANGES_REQUESTED", "COMMENTED", "DISMISSED"]);

/** Submitted reviews (a PENDING review is a draft only its author sees: left out). */
export function reviewsOf(reviews: readonly GhReview[]): Review[] {
  return reviews
    .filter((r) => REVIEW_STATES.has(r.state) && r.submitted_at && r.user)
    .map((r) => ({ author: r.user!.login, state: r.state as ReviewState, submittedAt: new Date(r.submitted_at!) }));
}

/** Builds the snapshot. */
export function buildSnapshot(p: SnapshotParts): PullRequestSnapshot {
  const { pull } = p;
  const headRepo = pull.headRepoFullName;
  return {
    repository: p.repository,
    number: pull.number,
    title: pull.title,
    body: pull.body,
    url: pull.url,
    author: pull.author,
    base: pull.base,
    head: pull.head,
    headSha: pull.headSha,
    baseSha: p.baseTipSha,
    // A deleted fork leaves no head repository; the head's owner still names it.
    headRepoFullName: headRepo ?? `${pull.headOwner}/${p.repository.split("/")[1]}`,
    draft: pull.draft,
    state: pull.state,
    locked: pull.locked,
    conflict: pull.conflict,
    commitsBehind: p.commitsBehind,
    labels: pull.labels.map((l) => ({ id: l.id ?? 0, name: l.name, color: l.color, default: l.default })),
    assignees: pull.assignees,
    requestedReviewers: pull.requestedReviewers,
    requestedTeams: pull.requestedTeams,
    reviews: p.reviews,
    checks: p.checks,
    ...fileLists(p.files),
    addedLines: pull.additions,
    deletedLines: pull.deletions,
    commits: p.commits,
    milestone: pull.milestone,
    mergedBy: pull.mergedBy,
    mergeCommitSha: pull.mergeCommitSha,
    createdAt: pull.createdAt,
    updatedAt: pull.updatedAt,
    closedAt: pull.closedAt,
    mergedAt: pull.mergedAt,
    fromFork: headRepo === null || headRepo.toLowerCase() !== pull.baseRepoFullName.toLowerCase(),
    reviewThreadsResolved: p.reviewThreads.resolved,
    reviewThreadsUnresolved: p.reviewThreads.unresolved,
  };
}
