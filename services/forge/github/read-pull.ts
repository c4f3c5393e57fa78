/**
 * Reading pull requests with every condition attribute (ForgePort.getPullRequest and
 * listOpenPullRequests; docs/domain.md §2.2; docs/github.md "Pull request attributes" and
 * "Request budget"). One snapshot costs one request: the GraphQL query `PullSnapshot`
 * (pull-graphql.ts) for the pull request's attributes, files, commits, reviews, review threads, the
 * head's check runs and commit statuses and the comparison with the base branch; the labels'
 * numeric ids come from the repository's kept label list (label-ids.ts). A part GraphQL cannot give
 * in one page (or renamed files) is read with REST: `pulls.get` (more than 100 labels, assignees or
 * review requests), files, commits and reviews (paginated), check runs and the combined commit
 * status of the head, a comparison of the base branch with the head, the review threads.
 */
import { type CheckRun, ForgeError, type OpenPullFilter, type PullRequestSnapshot, type RepoName } from "../types.js";
import { checkRunOf, commitStatusOf } from "./check-states.js";
import type { GithubOctokit } from "./client.js";
import type { GhStatus } from "./github-types.js";
import type { LabelIds } from "./label-ids.js";
import { factsOfRest, type PullFacts } from "./pull-facts.js";
import type { RepoParams } from "./repo-name.js";
import { githubStatus } from "./errors.js";
import { readGraphqlPull } from "./pull-graphql.js";
import { readReviewThreads } from "./review-threads.js";
import { buildSnapshot, commitInfoOf, reviewsOf } from "./snapshot.js";

/** The repository a read is about. */
export interface RepoContext {
  name: RepoName;
  params: RepoParams;
  /** Id of Yardmaster's App (its check runs are its own). */
  appId: number;
  /** The repositories' label lists, for the labels' numeric ids. */
  labelIds: LabelIds;
}

/** The latest commit status of each context on `ref` (every page of the combined status). */
export async function combinedStatuses(gh: GithubOctokit, params: RepoParams, ref: string): Promise<GhStatus[]> {
  const all: GhStatus[] = [];
  for (let page = 1; ; page++) {
    const { data } = await gh.rest.repos.getCombinedStatusForRef({ ...params, ref, per_page: 100, page });
    all.push(...data.statuses);
    if (data.statuses.length < 100 || all.length >= data.total_count) return all;
  }
}

/** Tip of the base branch and how many of its commits the head lacks (REST). */
async function baseComparison(gh: GithubOctokit, params: RepoParams, pull: PullFacts) {
  try {
    const { data } = await gh.rest.repos.compareCommitsWithBasehead({
      ...params,
      basehead: `${pull.base}...${pull.headSha}`,
      per_page: 1,
    });
    return { baseTipSha: data.base_commit.sha, commitsBehind: data.behind_by };
  } catch (e) {
    // A closed pull request may have lost its base branch or head commit: keep what GitHub recorded.
    if (pull.state !== "open" && githubStatus(e) === 404) return { baseTipSha: pull.recordedBaseSha, commitsBehind: 0 };
    throw e;
  }
}

/** The head's check runs (latest per app and name) with REST, every page. */
export async function restCheckRuns(gh: GithubOctokit, ctx: RepoContext, head: string): Promise<CheckRun[]> {
  const runs = await gh.paginate(gh.rest.checks.listForRef, {
    ...ctx.params,
    ref: head,
    filter: "latest",
    per_page: 100,
  });
  return runs.map((r) => checkRunOf(r, ctx.appId));
}

/**
 * Reads one pull request.
 * @throws ForgeError not_found when the repository has no such pull request; the Octokit error of
 *   the first failed request otherwise (the caller maps it with errors.ts)
 */
export async function readPullRequest(
  gh: GithubOctokit,
  ctx: RepoContext,
  number: number,
): Promise<PullRequestSnapshot> {
  const { params } = ctx;
  const pr = { ...params, pull_number: number, per_page: 100 };
  const read = await readGraphqlPull(gh, params, number, ctx.appId);
  if (read === null) throw new ForgeError("not_found", `pull request #${number} does not exist in ${ctx.name}`);
  const { parts } = read;
  // More than a page of labels, assignees or review requests: REST's pull request has them all.
  const pull = read.factsIncomplete
    ? factsOfRest((await gh.rest.pulls.get({ ...params, pull_number: number })).data)
    : read.facts;
  const head = pull.headSha;
  const [files, commits, reviews, checkRuns, statuses, comparison, reviewThreads, labelIds] = await Promise.all([
    parts.files ?? gh.paginate(gh.rest.pulls.listFiles, pr),
    parts.commits ?? gh.paginate(gh.rest.pulls.listCommits, pr).then((list) => list.map(commitInfoOf)),
    parts.reviews ?? gh.paginate(gh.rest.pulls.listReviews, pr).then(reviewsOf),
    parts.checkRuns ?? restCheckRuns(gh, ctx, head),
    parts.statusesRead ? parts.statuses : combinedStatuses(gh, params, head).then((list) => list.map(commitStatusOf)),
    parts.comparison ?? baseComparison(gh, params, pull),
    parts.reviewThreads ?? readReviewThreads(gh, params, number),
    pull.labels.some((l) => l.id === null)
      ? ctx.labelIds.idsOf(
          gh,
          ctx.name,
          params,
          pull.labels.map((l) => l.name),
        )
      : null,
  ]);
  const labels = pull.labels.map((l) => ({ ...l, id: l.id ?? labelIds?.get(l.name) ?? null }));
  return buildSnapshot({
    repository: ctx.name,
    pull: { ...pull, labels },
    files,
    commits,
    reviews,
    checks: [...checkRuns, ...statuses],
    ...comparison,
    reviewThreads,
  });
}

/** Runs `fn` over `items` with at most `limit` calls in flight; results in input order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Numbers of the open pull requests whose head is `sha`, from the commit's pull requests (one request). */
async function openPullsAt(gh: GithubOctokit, ctx: RepoContext, sha: string, base: string | undefined) {
  const associated = await gh.paginate(gh.rest.repos.listPullRequestsAssociatedWithCommit, {
    ...ctx.params,
    commit_sha: sha,
    per_page: 100,
  });
  return associated
    .filter((p) => p.state === "open" && p.head.sha === sha && (base === undefined || p.base.ref === base))
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.number - b.number);
}

/**
 * Every open pull request, oldest first, each read in full, four at a time; only those at head
 * `only.headSha` and into `only.base` when given. At a head SHA they are found with the commit's
 * pull requests (`GET {r}/commits/{sha}/pulls`: one request, "open pull requests associated with
 * the commit" while it is not in the default branch), not by listing every open one. A pull
 * request closed between the list and its read is left out.
 */
export async function readOpenPullRequests(
  gh: GithubOctokit,
  ctx: RepoContext,
  only: OpenPullFilter = {},
): Promise<PullRequestSnapshot[]> {
  const open =
    only.headSha !== undefined
      ? await openPullsAt(gh, ctx, only.headSha, only.base)
      : await gh.paginate(gh.rest.pulls.list, {
          ...ctx.params,
          state: "open",
          sort: "created",
          direction: "asc",
          per_page: 100,
          ...(only.base === undefined ? {} : { base: only.base }),
        });
  const read = await mapLimited(open, 4, async (p) => {
    try {
      return await readPullRequest(gh, ctx, p.number);
    } catch (e) {
      if (githubStatus(e) === 404 || (e instanceof ForgeError && e.kind === "not_found")) return null;
      throw e;
    }
  });
  return read.filter((s): s is PullRequestSnapshot => s !== null && s.state === "open");
}
