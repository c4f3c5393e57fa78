/**
 * The parts of a pull request snapshot that one GraphQL query reads in place of six REST calls
 * (docs/github.md "Request budget", "Pull request attributes"): changed files, commits, reviews,
 * review threads, the head commit's check runs and commit statuses, and the base branch's tip with
 * the number of its commits the head lacks (`Ref.compare(headRef:)`). Schema:
 * https://docs.github.com/en/graphql/reference/objects#pullrequest (validated against
 * `@octokit/graphql-schema` in the tests).
 *
 * Each list is read up to one page (100; 50 check suites). Where GraphQL cannot say what the REST
 * API does, the caller reads that part with REST instead ({@link SnapshotGaps}): more than a page
 * of anything, and renamed files (GraphQL gives a renamed file's new path only; the conditions
 * read the old one too).
 */
import type { CheckRun, CommitInfo, Review, ReviewState, Sha } from "../types.js";
import { checkRunsOf, complete, COMMIT_CHECK_FIELDS, statusesOf, type GqlCommitChecks } from "./graphql-checks.js";
import type { GithubOctokit } from "./client.js";
import type { RepoParams } from "./repo-name.js";
import type { FileEntry } from "./snapshot.js";

/** The query, exported so the GitHub test double can recognise it. */
export const PULL_SNAPSHOT_QUERY = `query PullSnapshot($owner: String!, $name: String!, $number: Int!, $head: GitObjectID!, $headRef: String!, $baseRef: String!) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      files(first: 100) { pageInfo { hasNextPage } nodes { path changeType } }
      commits(first: 100) {
        pageInfo { hasNextPage }
        nodes { commit { oid message author { name date } committer { name date } parents(first: 10) { nodes { oid } } signature { isValid } } }
      }
      reviews(first: 100) { pageInfo { hasNextPage } nodes { state submittedAt author { login } } }
      reviewThreads(first: 100) { pageInfo { hasNextPage } nodes { isResolved comments(first: 1) { nodes { body } } } }
    }
    head: object(oid: $head) {
      ... on Commit {
        ${COMMIT_CHECK_FIELDS}
      }
    }
    base: ref(qualifiedName: $baseRef) { target { oid } compare(headRef: $headRef) { behindBy } }
  }
}`;

type Page<T> = { pageInfo: { hasNextPage: boolean }; nodes: T[] };

/** A commit of the pull request as the query reads it. */
interface GqlCommit {
  commit: {
    oid: string;
    message: string;
    author: { name: string | null; date: string | null } | null;
    committer: { name: string | null; date: string | null } | null;
    parents: { nodes: { oid: string }[] };
    signature: { isValid: boolean } | null;
  };
}

interface SnapshotAnswer {
  repository: {
    pullRequest: {
      files: Page<{ path: string; changeType: string }>;
      commits: Page<GqlCommit>;
      reviews: Page<{ state: string; submittedAt: string | null; author: { login: string } | null }>;
      reviewThreads: Page<{ isResolved: boolean; comments: { nodes: { body: string }[] } }>;
    } | null;
    head: GqlCommitChecks | null;
    base: { target: { oid: string } | null; compare: { behindBy: number } | null } | null;
  } | null;
}

/** What the query could not say: the caller reads these with REST. */
export interface SnapshotGaps {
  files: boolean;
  commits: boolean;
  reviews: boolean;
  threads: boolean;
  checkRuns: boolean;
  comparison: boolean;
}

/** The snapshot parts read with GraphQL (`null` where {@link SnapshotGaps} says to use REST). */
export interface GraphqlParts {
  files: FileEntry[] | null;
  commits: CommitInfo[] | null;
  reviews: Review[] | null;
  reviewThreads: { resolved: string[]; unresolved: string[] } | null;
  /** Check runs (latest per app and name) then commit statuses; null when the runs need REST (the statuses are then in `statuses`). */
  checkRuns: CheckRun[] | null;
  statuses: CheckRun[];
  comparison: { baseTipSha: Sha; commitsBehind: number } | null;
  gaps: SnapshotGaps;
}

/** GitHub's PatchStatus as the REST file status; RENAMED has no REST equivalent without the old path. */
const PATCH_STATUS: Record<string, FileEntry["status"]> = {
  ADDED: "added",
  DELETED: "removed",
  MODIFIED: "modified",
  CHANGED: "changed",
  COPIED: "copied",
};

const REVIEW_STATES: ReadonlySet<string> = new Set(["APPROVED", "CHANGES_REQUESTED", "COMMENTED", "DISMISSED"]);

function commitOf(c: GqlCommit): CommitInfo {
  const { commit } = c;
  return {
    sha: commit.oid,
    title: commit.message.split("\n", 1)[0],
    message: commit.message,
    author: commit.author?.name ?? "",
    committer: commit.committer?.name ?? "",
    parents: commit.parents.nodes.map((p) => p.oid),
    verified: commit.signature?.isValid ?? false,
    date: new Date(commit.committer?.date ?? commit.author?.date ?? 0),
  };
}

/**
 * Reads the parts of pull request `number` at head `head` into base branch `base`.
 * @returns null when GitHub says the pull request does not exist
 * @throws the GraphQL client's error (the caller maps it with errors.ts)
 */
export async function readGraphqlParts(
  gh: GithubOctokit,
  params: RepoParams,
  number: number,
  head: Sha,
  base: string,
  ownAppId: number,
): Promise<GraphqlParts | null> {
  const data = await gh.graphql<SnapshotAnswer>(PULL_SNAPSHOT_QUERY, {
    owner: params.owner,
    name: params.repo,
    number,
    head,
    headRef: head,
    baseRef: `refs/heads/${base}`,
  });
  const pr = data.repository?.pullRequest;
  if (!pr) return null;
  const gaps: SnapshotGaps = {
    files: pr.files.pageInfo.hasNextPage || pr.files.nodes.some((f) => !PATCH_STATUS[f.changeType]),
    commits: pr.commits.pageInfo.hasNextPage,
    reviews: pr.reviews.pageInfo.hasNextPage,
    threads: pr.reviewThreads.pageInfo.hasNextPage,
    checkRuns: false,
    comparison: false,
  };
  const commit = data.repository?.head;
  gaps.checkRuns = !commit?.checkSuites || !complete(commit);
  const compare = data.repository?.base;
  gaps.comparison = !compare?.target || !compare.compare;

  const resolved: string[] = [],
    unresolved: string[] = [];
  for (const t of pr.reviewThreads.nodes) (t.isResolved ? resolved : unresolved).push(t.comments.nodes[0]?.body ?? "");

  return {
    files: gaps.files ? null : pr.files.nodes.map((f) => ({ filename: f.path, status: PATCH_STATUS[f.changeType] })),
    commits: gaps.commits ? null : pr.commits.nodes.map(commitOf),
    reviews: gaps.reviews
      ? null
      : pr.reviews.nodes
          .filter((r) => REVIEW_STATES.has(r.state) && r.submittedAt && r.author)
          .map((r) => ({
            author: r.author!.login,
            state: r.state as ReviewState,
            submittedAt: new Date(r.submittedAt!),
          })),
    reviewThreads: gaps.threads ? null : { resolved, unresolved },
    checkRuns: gaps.checkRuns ? null : checkRunsOf(commit, ownAppId),
    statuses: statusesOf(commit),
    comparison: gaps.comparison
      ? null
      : { baseTipSha: compare!.target!.oid, commitsBehind: compare!.compare!.behindBy },
    gaps,
  };
}
