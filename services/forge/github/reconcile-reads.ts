/**
 * Reconciliation's reads on GitHub (services/forge/reconciliation-port.ts; docs/github.md
 * "Reconciliation" and "Request budget"). One GraphQL query (https://docs.github.com/en/graphql)
 * answers a whole pass for a repository: the 50 most recently updated pull requests (open or not),
 * the tips of up to {@link BASE_SLOTS} branches and the check runs and commit statuses of up to
 * {@link COMMIT_SLOTS} commits. More pull requests updated since the instant are read 50 at a time
 * with the same query; more branches or commits take one query per slots' worth. One commit's
 * checks alone (getCommitChecks) are one query too. A commit with more than a page of check
 * suites or runs is read with REST (`GET {r}/commits/{sha}/check-runs`, `/status`, conditional
 * requests).
 */
import type { CheckRun, PullRequestHead, ReconciliationFacts, Sha } from "../types.js";
import { commitStatusOf } from "./check-states.js";
import type { GithubOctokit } from "./client.js";
import { checkRunsOf, complete, COMMIT_CHECK_FIELDS, statusesOf, type GqlCommitChecks } from "./graphql-checks.js";
import { combinedStatuses, restCheckRuns, type RepoContext } from "./read-pull.js";

/** Branch tips one query reads. */
export const BASE_SLOTS = 2;
/** Commits whose checks one query reads. */
export const COMMIT_SLOTS = 5;
/** Pages of 50 pull requests read at most in one pass (1,000 updated since the previous). */
export const MAX_PAGES = 20;

const CHECKS = `... on Commit {
        ${COMMIT_CHECK_FIELDS}
      }`;

/**
 * One commit's check runs and statuses (ReconciliationPort.getCommitChecks), exported so the
 * GitHub test double can recognise it.
 */
export const COMMIT_CHECKS_QUERY = `query CommitChecks($owner: String!, $name: String!, $sha: GitObjectID!) {
  repository(owner: $owner, name: $name) {
    commit: object(oid: $sha) { ${CHECKS} }
  }
}`;

/** The query, exported so the GitHub test double can recognise it. */
export const RECONCILE_QUERY = `query ReconcileFacts($owner: String!, $name: String!, $after: String, $b0: String!, $b1: String!, $c0: GitObjectID, $c1: GitObjectID, $c2: GitObjectID, $c3: GitObjectID, $c4: GitObjectID) {
  repository(owner: $owner, name: $name) {
    pullRequests(first: 50, after: $after, orderBy: { field: UPDATED_AT, direction: DESC }) {
      pageInfo { hasNextPage endCursor }
      nodes {
        number state baseRefName headRefOid updatedAt mergeCommit { oid } title body isDraft locked
        labels(first: 100) { nodes { name } }
        assignees(first: 100) { nodes { login } }
        reviewRequests(first: 100) { nodes { requestedReviewer { ... on User { login } ... on Team { slug } } } }
        milestone { title }
      }
    }
    b0: ref(qualifiedName: $b0) { target { oid } }
    b1: ref(qualifiedName: $b1) { target { oid } }
    c0: object(oid: $c0) { ${CHECKS} }
    c1: object(oid: $c1) { ${CHECKS} }
    c2: object(oid: $c2) { ${CHECKS} }
    c3: object(oid: $c3) { ${CHECKS} }
    c4: object(oid: $c4) { ${CHECKS} }
  }
}`;

type Page<T> = { pageInfo: { hasNextPage: boolean; endCursor?: string | null }; nodes: T[] };
interface GqlPull {
  number: number;
  state: "OPEN" | "CLOSED" | "MERGED";
  baseRefName: string;
  headRefOid: string;
  updatedAt: string;
  mergeCommit: { oid: string } | null;
  title: string;
  body: string;
  isDraft: boolean;
  locked: boolean;
  labels: { nodes: { name: string }[] };
  assignees: { nodes: { login: string }[] };
  reviewRequests: { nodes: { requestedReviewer: { login?: string; slug?: string } | null }[] };
  milestone: { title: string } | null;
}
interface Answer {
  repository:
    | ({
        pullRequests: Page<GqlPull>;
      } & Record<string, unknown>)
    | null;
}

function headOf(p: GqlPull): PullRequestHead {
  const reviewers = p.reviewRequests.nodes.map((r) => r.requestedReviewer);
  return {
    number: p.number,
    state: p.state === "MERGED" ? "merged" : p.state === "OPEN" ? "open" : "closed",
    base: p.baseRefName,
    headSha: p.headRefOid,
    updatedAt: new Date(p.updatedAt),
    mergeCommitSha: p.state === "MERGED" ? (p.mergeCommit?.oid ?? null) : null,
    title: p.title,
    body: p.body,
    draft: p.isDraft,
    locked: p.locked,
    labels: p.labels.nodes.map((l) => l.name),
    assignees: p.assignees.nodes.map((a) => a.login),
    requestedReviewers: reviewers.flatMap((r) => (r?.login ? [r.login] : [])),
    requestedTeams: reviewers.flatMap((r) => (r?.slug ? [r.slug] : [])),
    milestone: p.milestone?.title ?? null,
  };
}

/** A commit's checks from a query's answer, or null when a page was not enough (REST then). */
function checksOf(c: GqlCommitChecks | null, appId: number): CheckRun[] | null {
  if (!complete(c)) return null;
  return [...checkRunsOf(c, appId), ...statusesOf(c)];
}

/** The check runs and commit statuses on `sha` with REST, every page (conditional requests). */
async function restChecks(gh: GithubOctokit, ctx: RepoContext, sha: string): Promise<CheckRun[]> {
  const [runs, statuses] = await Promise.all([
    restCheckRuns(gh, ctx, sha),
    combinedStatuses(gh, ctx.params, sha).then((list) => list.map(commitStatusOf)),
  ]);
  return [...runs, ...statuses];
}

/**
 * What reconciliation asks of one repository in a pass.
 * @throws the GraphQL or Octokit error (the caller maps it with errors.ts)
 */
export async function reconciliationFacts(
  gh: GithubOctokit,
  ctx: RepoContext,
  ask: { since: Date; branches: readonly string[]; commits: readonly Sha[] },
): Promise<ReconciliationFacts> {
  const facts: ReconciliationFacts = { pulls: [], tips: {}, checks: {} };
  const branches = [...new Set(ask.branches)];
  const commits = [...new Set(ask.commits)];
  let after: string | null = null;
  let listing = true;
  for (let i = 0; listing || branches.length > 0 || commits.length > 0; i++) {
    const b = branches.splice(0, BASE_SLOTS);
    const c = commits.splice(0, COMMIT_SLOTS);
    const vars: Record<string, unknown> = { owner: ctx.params.owner, name: ctx.params.repo, after };
    for (let k = 0; k < BASE_SLOTS; k++) vars[`b${k}`] = `refs/heads/${b[k] ?? b[0] ?? "HEAD"}`;
    for (let k = 0; k < COMMIT_SLOTS; k++) vars[`c${k}`] = c[k] ?? null;
    const data: Answer = await gh.graphql<Answer>(RECONCILE_QUERY, vars);
    const repo = data.repository;
    if (!repo) return facts;
    b.forEach((branch, k) => {
      facts.tips[branch] = (repo[`b${k}`] as { target: { oid: string } } | null)?.target?.oid ?? null;
    });
    for (const [k, sha] of c.entries()) {
      facts.checks[sha] =
        checksOf(repo[`c${k}`] as GqlCommitChecks | null, ctx.appId) ?? (await restChecks(gh, ctx, sha));
    }
    if (!listing) continue;
    const page = repo.pullRequests;
    for (const p of page.nodes) {
      if (new Date(p.updatedAt).getTime() < ask.since.getTime()) {
        listing = false;
        break;
      }
      facts.pulls.push(headOf(p));
    }
    if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor || i + 1 >= MAX_PAGES) listing = false;
    after = page.pageInfo.endCursor ?? null;
  }
  return facts;
}

/**
 * The check runs and commit statuses on `sha`, as a snapshot carries them: one GraphQL query
 * (REST past a page). @throws the GraphQL or Octokit error
 */
export async function commitChecks(gh: GithubOctokit, ctx: RepoContext, sha: string): Promise<CheckRun[]> {
  const data = await gh.graphql<{ repository: { commit: GqlCommitChecks | null } | null }>(COMMIT_CHECKS_QUERY, {
    owner: ctx.params.owner,
    name: ctx.params.repo,
    sha,
  });
  return checksOf(data.repository?.commit ?? null, ctx.appId) ?? (await restChecks(gh, ctx, sha));
}
