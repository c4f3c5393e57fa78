/**
 * Reading pull requests with every condition attribute (ForgePort.getPullRequest and
 * listOpenPullRequests; docs/domain.md §2.2). One snapshot costs, in parallel after
 * `pulls.get`: files, commits and reviews (paginated), check runs and the combined commit status
 * of the head, a comparison of the base branch with the head (base tip, commits behind) and the
 * review threads (GraphQL). docs/github.md "Pull request attributes".
 */
import type { OpenPullFilter, PullRequestSnapshot, RepoName } from "../types.js";
import type { GithubOctokit } from "./client.js";
import type { GhStatus } from "./github-types.js";
import type { RepoParams } from "./repo-name.js";
import { githubStatus } from "./errors.js";
import { readReviewThreads } from "./review-threads.js";
import { buildSnapshot } from "./snapshot.js";

/** The repository a read is about. */
export interface RepoContext {
  name: RepoName;
  params: RepoParams;
  /** Id of Yardmaster's App (its check runs are its own). */
  appId: number;
}

/** The latest commit status of each context on `ref` (every page of the combined status). */
async function combinedStatuses(gh: GithubOctokit, params: RepoParams, ref: string): Promise<GhStatus[]> {
  const all: GhStatus[] = [];
  for (let page = 1; ; page++) {
    const { data } = await gh.rest.repos.getCombinedStatusForRef({ ...params, ref, per_page: 100, page });
    all.push(...data.statuses);
    if (data.statuses.length < 100 || all.length >= data.total_count) return all;
  }
}

/** Tip of the base branch and how many of its commits the head lacks. */
async function baseComparison(
  gh: GithubOctokit,
  params: RepoParams,
  base: string,
  head: string,
  open: boolean,
  fallbackBase: string,
) {
  try {
    const { data } = await gh.rest.repos.compareCommitsWithBasehead({
      ...params,
      basehead: `${base}...${head}`,
      per_page: 1,
    });
    return { baseTipSha: data.base_commit.sha, commitsBehind: data.behind_by };
  } catch (e) {
    // A closed pull request may have lost its base branch or head commit: keep what GitHub recorded.
    if (!open && githubStatus(e) === 404) return { baseTipSha: fallbackBase, commitsBehind: 0 };
    throw e;
  }
}

/**
 * Reads one pull request.
 * @throws the Octokit error of the first failed request (the caller maps it with errors.ts)
 */
export async function readPullRequest(
  gh: GithubOctokit,
  ctx: RepoContext,
  number: number,
): Promise<PullRequestSnapshot> {
  const { params } = ctx;
  const pr = { ...params, pull_number: number, per_page: 100 };
  const { data: pull } = await gh.rest.pulls.get({ ...params, pull_number: number });
  const head = pull.head.sha;
  const [files, commits, reviews, checkRuns, statuses, comparison, reviewThreads] = await Promise.all([
    gh.paginate(gh.rest.pulls.listFiles, pr),
    gh.paginate(gh.rest.pulls.listCommits, pr),
    gh.paginate(gh.rest.pulls.listReviews, pr),
    gh.paginate(gh.rest.checks.listForRef, { ...params, ref: head, filter: "latest", per_page: 100 }),
    combinedStatuses(gh, params, head),
    baseComparison(gh, params, pull.base.ref, head, pull.state === "open", pull.base.sha),
    readReviewThreads(gh, params, number),
  ]);
  return buildSnapshot({
    repository: ctx.name,
    pull,
    files,
    commits,
    reviews,
    checkRuns,
    statuses,
    ...comparison,
    reviewThreads,
    ownAppId: ctx.appId,
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

/**
 * Every open pull request, oldest first (`pulls.list` sorted by creation), each read in full,
 * four at a time. A pull request closed between the list and its read is left out.
 */
export async function readOpenPullRequests(
  gh: GithubOctokit,
  ctx: RepoContext,
  only: OpenPullFilter = {},
): Promise<PullRequestSnapshot[]> {
  const listed = await gh.paginate(gh.rest.pulls.list, {
    ...ctx.params,
    state: "open",
    sort: "created",
    direction: "asc",
    per_page: 100,
    ...(only.base === undefined ? {} : { base: only.base }),
  });
  // The list carries each head's SHA: only the matching pull requests are read whole.
  const open = only.headSha === undefined ? listed : listed.filter((p) => p.head.sha === only.headSha);
  const read = await mapLimited(open, 4, async (p) => {
    try {
      return await readPullRequest(gh, ctx, p.number);
    } catch (e) {
      if (githubStatus(e) === 404) return null;
      throw e;
    }
  });
  return read.filter((s): s is PullRequestSnapshot => s !== null && s.state === "open");
}
