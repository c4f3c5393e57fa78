/**
 * Reconciliation's reads on GitHub (services/forge/reconciliation-port.ts; docs/github.md
 * "Reconciliation"), each a conditional request (conditional-requests.ts) so that a read that finds
 * nothing new is answered 304 and does not count against the primary rate limit:
 * - the pull requests updated since an instant: `GET {r}/pulls?state=all&sort=updated&direction=desc`
 *   (https://docs.github.com/en/rest/pulls/pulls#list-pull-requests), pages of 100 until one older
 *   than the instant (at most {@link MAX_PAGES} pages);
 * - a commit's checks: `GET {r}/commits/{sha}/check-runs?filter=latest` and `GET {r}/commits/{sha}/status`.
 */
import type { CheckRun, PullRequestHead } from "../types.js";
import { commitStatusOf } from "./check-states.js";
import type { GithubOctokit } from "./client.js";
import { combinedStatuses, restCheckRuns, type RepoContext } from "./read-pull.js";
import type { RepoParams } from "./repo-name.js";

/** Pages of 100 read at most in one listing (3,000 pull requests updated since the instant). */
export const MAX_PAGES = 30;

/** Pull requests updated at or after `since`, most recently updated first. @throws the Octokit error */
export async function updatedPullRequests(
  gh: GithubOctokit,
  params: RepoParams,
  since: Date,
): Promise<PullRequestHead[]> {
  const out: PullRequestHead[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { data } = await gh.rest.pulls.list({
      ...params,
      state: "all",
      sort: "updated",
      direction: "desc",
      per_page: 100,
      page,
    });
    for (const p of data) {
      const updatedAt = new Date(p.updated_at);
      if (updatedAt.getTime() < since.getTime()) return out;
      out.push({
        number: p.number,
        state: p.merged_at ? "merged" : p.state === "open" ? "open" : "closed",
        base: p.base.ref,
        headSha: p.head.sha,
        updatedAt,
        mergeCommitSha: p.merged_at ? (p.merge_commit_sha ?? null) : null,
        title: p.title,
        body: p.body ?? "",
        draft: p.draft ?? false,
        locked: p.locked,
        labels: p.labels.map((l) => l.name),
        assignees: (p.assignees ?? []).map((a) => a.login),
        requestedReviewers: (p.requested_reviewers ?? []).map((u) => u.login),
        requestedTeams: (p.requested_teams ?? []).map((t) => t.slug),
        milestone: p.milestone?.title ?? null,
      });
    }
    if (data.length < 100) return out;
  }
  return out;
}

/** The check runs and commit statuses on `sha`, as a snapshot carries them. @throws the Octokit error */
export async function commitChecks(gh: GithubOctokit, ctx: RepoContext, sha: string): Promise<CheckRun[]> {
  const [runs, statuses] = await Promise.all([
    restCheckRuns(gh, ctx, sha),
    combinedStatuses(gh, ctx.params, sha).then((list) => list.map(commitStatusOf)),
  ]);
  return [...runs, ...statuses];
}
