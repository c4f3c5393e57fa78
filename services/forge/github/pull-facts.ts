/**
 * A pull request's own attributes (title, body, branches, head SHA, state, mergeability, labels,
 * people, dates: docs/github.md "Pull request attributes") from either of GitHub's answers: the
 * `PullSnapshot` GraphQL query (pull-graphql.ts), which reads them in the same request as the
 * files, commits and checks, or REST's `pulls.get`, read only where one GraphQL page cannot hold a
 * list (more than 100 labels, assignees or review requests). Schema of the GraphQL fields:
 * https://docs.github.com/en/graphql/reference/objects#pullrequest (validated against
 * `@octokit/graphql-schema` in the tests). GraphQL's `Label` has no numeric id
 * (https://docs.github.com/en/graphql/reference/objects#label): the ids come from the
 * repository's label list (label-ids.ts).
 */
import type { Sha } from "../types.js";
import type { GhPull } from "./github-types.js";

/** The selection of a `PullRequest` the snapshot query reads for {@link PullFacts}. */
export const PULL_FACT_FIELDS = `number title body url state merged mergedAt closedAt createdAt updatedAt isDraft locked
      additions deletions mergeable mergeStateStatus baseRefName baseRefOid headRefName headRefOid
      author { login ... on User { databaseId } ... on Bot { databaseId } ... on Mannequin { databaseId } ... on Organization { databaseId } }
      headRepository { nameWithOwner }
      headRepositoryOwner { login }
      mergeCommit { oid }
      mergedBy { login }
      milestone { title }
      labels(first: 100) { pageInfo { hasNextPage } nodes { name color isDefault } }
      assignees(first: 100) { pageInfo { hasNextPage } nodes { login } }
      reviewRequests(first: 100) {
        pageInfo { hasNextPage }
        nodes { requestedReviewer { ... on User { login } ... on Bot { login } ... on Mannequin { login } ... on Team { slug } } }
      }`;

type Page<T> = { pageInfo: { hasNextPage: boolean }; nodes: T[] };

/** What {@link PULL_FACT_FIELDS} answers. */
export interface GqlPullFacts {
  number: number;
  title: string;
  body: string;
  url: string;
  state: "OPEN" | "CLOSED" | "MERGED";
  merged: boolean;
  mergedAt: string | null;
  closedAt: string | null;
  createdAt: string;
  updatedAt: string;
  isDraft: boolean;
  locked: boolean;
  additions: number;
  deletions: number;
  mergeable: "MERGEABLE" | "CONFLICTING" | "UNKNOWN";
  mergeStateStatus: string;
  baseRefName: string;
  baseRefOid: string;
  headRefName: string;
  headRefOid: string;
  author: { login: string; databaseId?: number | null } | null;
  headRepository: { nameWithOwner: string } | null;
  headRepositoryOwner: { login: string } | null;
  mergeCommit: { oid: string } | null;
  mergedBy: { login: string } | null;
  milestone: { title: string } | null;
  labels: Page<{ name: string; color: string; isDefault: boolean }> | null;
  assignees: Page<{ login: string }>;
  reviewRequests: Page<{ requestedReviewer: { login?: string; slug?: string } | null }> | null;
}

/** A label of the pull request; `id` is GitHub's numeric id (null until label-ids.ts fills it). */
export interface PullLabel {
  id: number | null;
  name: string;
  color: string;
  default: boolean;
}

/** The pull request's attributes the snapshot is built from (snapshot.ts). */
export interface PullFacts {
  number: number;
  title: string;
  body: string;
  url: string;
  author: { id: number; login: string };
  base: string;
  /** The base SHA GitHub recorded for the pull request (kept for a closed one whose base is gone). */
  recordedBaseSha: Sha;
  head: string;
  headSha: Sha;
  /** `owner/name` of the head repository; null when the fork was deleted. */
  headRepoFullName: string | null;
  /** Owner of the head branch (a deleted fork's owner still names it). */
  headOwner: string;
  baseRepoFullName: string;
  draft: boolean;
  state: "open" | "closed" | "merged";
  locked: boolean;
  /** `mergeable` false or the merge state dirty, for an open pull request (false while GitHub computes). */
  conflict: boolean;
  labels: PullLabel[];
  assignees: string[];
  requestedReviewers: string[];
  requestedTeams: string[];
  additions: number;
  deletions: number;
  milestone: string | null;
  mergedBy: string | null;
  /** The merge commit of a merged pull request (for an open one GitHub's value is its test merge: null). */
  mergeCommitSha: Sha | null;
  createdAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
  mergedAt: Date | null;
}

/** Whether a list of the GraphQL answer needs REST's `pulls.get` (more than one page). */
export function factsNeedRest(pull: GqlPullFacts): boolean {
  return Boolean(
    pull.labels?.pageInfo.hasNextPage ||
      pull.assignees.pageInfo.hasNextPage ||
      pull.reviewRequests?.pageInfo.hasNextPage,
  );
}

const dateOf = (text: string | null | undefined) => (text ? new Date(text) : null);

/**
 * The facts from the GraphQL answer. `baseRepoFullName` is the repository queried.
 * Conflict: `mergeable` CONFLICTING or `mergeStateStatus` DIRTY (REST's `mergeable` false or
 * `mergeable_state` "dirty"); UNKNOWN (still computing) is no conflict.
 */
export function factsOfGraphql(pull: GqlPullFacts, baseRepoFullName: string): PullFacts {
  const state = pull.state === "MERGED" || pull.merged ? "merged" : pull.state === "CLOSED" ? "closed" : "open";
  const reviewers = pull.reviewRequests?.nodes.map((n) => n.requestedReviewer) ?? [];
  return {
    number: pull.number,
    title: pull.title,
    body: pull.body ?? "",
    url: pull.url,
    // A deleted account (GitHub's "ghost") has no author: id 0, as REST's ghost user has none either.
    author: { id: pull.author?.databaseId ?? 0, login: pull.author?.login ?? "ghost" },
    base: pull.baseRefName,
    recordedBaseSha: pull.baseRefOid,
    head: pull.headRefName,
    headSha: pull.headRefOid,
    headRepoFullName: pull.headRepository?.nameWithOwner ?? null,
    headOwner: pull.headRepositoryOwner?.login ?? baseRepoFullName.split("/")[0],
    baseRepoFullName,
    draft: pull.isDraft,
    state,
    locked: pull.locked,
    conflict: state === "open" && (pull.mergeable === "CONFLICTING" || pull.mergeStateStatus === "DIRTY"),
    labels: (pull.labels?.nodes ?? []).map((l) => ({ id: null, name: l.name, color: l.color, default: l.isDefault })),
    assignees: pull.assignees.nodes.map((a) => a.login),
    requestedReviewers: reviewers.flatMap((r) => (r?.login === undefined ? [] : [r.login])),
    requestedTeams: reviewers.flatMap((r) => (r?.slug === undefined ? [] : [r.slug])),
    additions: pull.additions,
    deletions: pull.deletions,
    milestone: pull.milestone?.title ?? null,
    mergedBy: pull.mergedBy?.login ?? null,
    mergeCommitSha: state === "merged" ? (pull.mergeCommit?.oid ?? null) : null,
    createdAt: new Date(pull.createdAt),
    updatedAt: new Date(pull.updatedAt),
    closedAt: dateOf(pull.closedAt),
    mergedAt: dateOf(pull.mergedAt),
  };
}

/** The facts from REST's `pulls.get` (its labels carry their numeric ids). */
export function factsOfRest(pull: GhPull): PullFacts {
  const merged = pull.merged || pull.merged_at !== null;
  const state = merged ? "merged" : pull.state === "closed" ? "closed" : "open";
  return {
    number: pull.number,
    title: pull.title,
    body: pull.body ?? "",
    url: pull.html_url,
    author: { id: pull.user.id, login: pull.user.login },
    base: pull.base.ref,
    recordedBaseSha: pull.base.sha,
    head: pull.head.ref,
    headSha: pull.head.sha,
    headRepoFullName: pull.head.repo?.full_name ?? null,
    headOwner: pull.head.label.split(":")[0],
    baseRepoFullName: pull.base.repo.full_name,
    draft: pull.draft ?? false,
    state,
    locked: pull.locked,
    conflict: state === "open" && (pull.mergeable === false || pull.mergeable_state === "dirty"),
    labels: pull.labels.map((l) => ({ id: l.id, name: l.name, color: l.color, default: l.default })),
    assignees: (pull.assignees ?? []).map((a) => a.login),
    requestedReviewers: (pull.requested_reviewers ?? []).map((u) => u.login),
    requestedTeams: (pull.requested_teams ?? []).map((t) => t.slug),
    additions: pull.additions,
    deletions: pull.deletions,
    milestone: pull.milestone?.title ?? null,
    mergedBy: pull.merged_by?.login ?? null,
    mergeCommitSha: merged ? (pull.merge_commit_sha ?? null) : null,
    createdAt: new Date(pull.created_at),
    updatedAt: new Date(pull.updated_at),
    closedAt: dateOf(pull.closed_at),
    mergedAt: dateOf(pull.merged_at),
  };
}
