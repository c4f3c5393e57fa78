/**
 * A pull request snapshot in one GraphQL query, in place of `pulls.get` and six REST calls
 * (docs/github.md "Request budget", "Pull request attributes"): the pull request's own attributes
 * (pull-facts.ts), changed files, commits, reviews, review threads, the head commit's check runs
 * and commit statuses (the last commit of the pull request, checked to be `headRefOid`), and the
 * base branch's tip with the number of its commits the head lacks: `baseRef.compare(headRef:)`
 * against `refs/pull/<n>/head`, the ref GitHub keeps in the base repository for every pull
 * request, forks included (https://docs.github.com/en/pull-requests/collaborating-with-pull-requests/reviewing-changes-in-pull-requests/checking-out-pull-requests-locally),
 * used only when the comparison's head is `headRefOid` (else REST's comparison). Schema:
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
import { factsNeedRest, factsOfGraphql, type GqlPullFacts, PULL_FACT_FIELDS, type PullFacts } from "./pull-facts.js";
import type { FileEntry } from "./snapshot.js";

/** The query, exported so the GitHub test double can recognise it. */
export const PULL_SNAPSHOT_QUERY = `query PullSnapshot($owner: String!, $name: String!, $number: Int!, $pullRef: String!) {
  repository(owner: $owner, name: $name) {
    nameWithOwner
    pullRequest(number: $number) {
      ${PULL_FACT_FIELDS}
      files(first: 100) { pageInfo { hasNextPage } nodes { path changeType } }
      commits(first: 100) {
        pageInfo { hasNextPage }
        nodes { commit { oid message author { name date } committer { name date } parents(first: 10) { nodes { oid } } signature { isValid } } }
      }
      reviews(first: 100) { pageInfo { hasNextPage } nodes { state submittedAt author { login } } }
      reviewThreads(first: 100) { pageInfo { hasNextPage } nodes { isResolved comments(first: 1) { nodes { body } } } }
      head: commits(last: 1) {
        nodes {
          commit {
            oid
            ${COMMIT_CHECK_FIELDS}
          }
        }
      }
      baseRef { target { oid } compare(headRef: $pullRef) { behindBy headTarget { oid } } }
    }
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
    nameWithOwner: string;
    pullRequest:
      | (GqlPullFacts & {
          files: Page<{ path: string; changeType: string }>;
          commits: Page<GqlCommit>;
          reviews: Page<{ state: string; submittedAt: string | null; author: { login: string } | null }>;
          reviewThreads: Page<{ isResolved: boolean; comments: { nodes: { body: string }[] } }>;
          head: { nodes: { commit: GqlCommitChecks & { oid: string } }[] };
          baseRef: {
            target: { oid: string } | null;
            compare: { behindBy: number; headTarget: { oid: string } | null } | null;
          } | null;
        })
      | null;
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
  /** Whether `statuses` were read (false: the head commit was not in the answer; REST reads them). */
  statusesRead: boolean;
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

/** The pull request's attributes and the snapshot's parts, from one query. */
export interface GraphqlPull {
  facts: PullFacts;
  /** Whether a list of the facts (labels, assignees, review requests) needs REST's `pulls.get`. */
  factsIncomplete: boolean;
  parts: GraphqlParts;
}

/**
 * The answer of `read`, or, when GitHub answers with errors that all lie under the base branch's
 * comparison (`repository.pullRequest.baseRef`, e.g. a head ref it cannot compare) and data for
 * the rest, that partial data: the comparison is then a gap read with REST, never a failed read.
 * GitHub answers field errors beside partial data
 * (https://docs.github.com/en/graphql/guides/forming-calls-with-graphql), which Octokit's client
 * raises as a GraphqlResponseError carrying `data` and `errors`.
 * @throws any other error of `read`, unchanged
 */
export async function comparisonTolerant<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    const answer = e as { name?: unknown; data?: unknown; errors?: { path?: unknown[] }[] };
    const underComparison = (err: { path?: unknown[] }) =>
      Array.isArray(err.path) &&
      err.path[0] === "repository" &&
      err.path[1] === "pullRequest" &&
      err.path[2] === "baseRef";
    if (
      answer?.name === "GraphqlResponseError" &&
      answer.data !== null &&
      typeof answer.data === "object" &&
      Array.isArray(answer.errors) &&
      answer.errors.length > 0 &&
      answer.errors.every(underComparison)
    )
      return answer.data as T;
    throw e;
  }
}

/**
 * Reads pull request `number`.
 * @returns null when GitHub says the repository has no such pull request
 * @throws the GraphQL client's error (the caller maps it with errors.ts)
 */
export async function readGraphqlPull(
  gh: GithubOctokit,
  params: RepoParams,
  number: number,
  ownAppId: number,
): Promise<GraphqlPull | null> {
  const data = await comparisonTolerant(() =>
    gh.graphql<SnapshotAnswer>(PULL_SNAPSHOT_QUERY, {
      owner: params.owner,
      name: params.repo,
      number,
      pullRef: `refs/pull/${number}/head`,
    }),
  );
  const pr = data.repository?.pullRequest;
  if (!data.repository || !pr) return null;
  const facts = factsOfGraphql(pr, data.repository.nameWithOwner);
  const gaps: SnapshotGaps = {
    files: pr.files.pageInfo.hasNextPage || pr.files.nodes.some((f) => !PATCH_STATUS[f.changeType]),
    commits: pr.commits.pageInfo.hasNextPage,
    reviews: pr.reviews.pageInfo.hasNextPage,
    threads: pr.reviewThreads.pageInfo.hasNextPage,
    checkRuns: false,
    comparison: false,
  };
  // The last commit is the head, unless GitHub's lists lag a push: then REST reads the head's checks.
  const last = pr.head.nodes[0]?.commit;
  const commit = last?.oid === facts.headSha ? last : null;
  gaps.checkRuns = !commit?.checkSuites || !complete(commit);
  const compare = pr.baseRef;
  gaps.comparison = !compare?.target || !compare.compare || compare.compare.headTarget?.oid !== facts.headSha;

  const resolved: string[] = [],
    unresolved: string[] = [];
  for (const t of pr.reviewThreads.nodes) (t.isResolved ? resolved : unresolved).push(t.comments.nodes[0]?.body ?? "");

  const parts: GraphqlParts = {
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
    statuses: commit ? statusesOf(commit) : [],
    statusesRead: commit !== null,
    comparison: gaps.comparison
      ? null
      : { baseTipSha: compare!.target!.oid, commitsBehind: compare!.compare!.behindBy },
    gaps,
  };
  return { facts, factsIncomplete: factsNeedRest(pr), parts };
}
