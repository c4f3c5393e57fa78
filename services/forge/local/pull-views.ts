/**
 * Pull requests as people read them (ForgeService.GetPullRequest and ListPullRequests, `yardmaster
 * pr show|list`): the row with its labels, the check runs of its head (newest per name), its
 * reviews and comments, and whether it conflicts with its base now.
 */
import type { RepoName } from "../types.js";
import { localForgeStore as store } from "../../store/index.js";
import { findBranchSha, hasConflict } from "./git/index.js";
import { asForgeError, gitOf, readPull, readRepository, type ForgeCore } from "./core.js";

/** A pull request with everything `pr show` prints. */
export interface PullRequestView {
  pull: store.PullRequestRow;
  labels: string[];
  checks: store.CheckRunRow[];
  reviews: store.ReviewRow[];
  comments: store.CommentRow[];
  /** Logins assigned, and logins whose review is requested, sorted. */
  assignees: string[];
  requestedReviewers: string[];
  /** True when open and its head does not merge cleanly into its base's tip. */
  conflict: boolean;
}

async function viewOf(
  core: ForgeCore,
  repo: store.LocalRepositoryRow,
  pull: store.PullRequestRow,
): Promise<PullRequestView> {
  const [rows, conflict] = await Promise.all([
    asForgeError(`reading pull request #${pull.number}`, async () => {
      const [labels, checks, reviews, comments, assignees, requestedReviewers] = await Promise.all([
        store.labelsOfPullRequest(core.db, pull.id),
        store.newestCheckRunsOfCommit(core.db, repo.id, pull.headSha),
        store.reviewsOfPullRequest(core.db, pull.id),
        store.commentsOfPullRequest(core.db, pull.id),
        store.assigneesOfPullRequest(core.db, pull.id),
        store.requestedReviewersOfPullRequest(core.db, pull.id),
      ]);
      return { labels: labels.map((l) => l.name), checks, reviews, comments, assignees, requestedReviewers };
    }),
    (async () => {
      if (pull.state !== "open") return false;
      const base = await findBranchSha(gitOf(repo), pull.baseBranch);
      return base === null ? false : hasConflict(gitOf(repo), base, pull.headSha);
    })(),
  ]);
  return { pull, ...rows, conflict };
}

/**
 * One pull request.
 * @throws ForgeError not_found for an unknown repository or pull request
 */
export async function describePullRequest(core: ForgeCore, repo: RepoName, number: number): Promise<PullRequestView> {
  const row = await readRepository(core, repo);
  return viewOf(core, row, await readPull(core.db, row, number));
}

/**
 * The pull requests of a repository, newest first.
 * @param state only this state; null = all
 * @throws ForgeError not_found for an unknown repository
 */
export async function listPullRequestViews(
  core: ForgeCore,
  repo: RepoName,
  state: store.PullState | null,
): Promise<PullRequestView[]> {
  const row = await readRepository(core, repo);
  const pulls = await asForgeError(`listing pull requests of ${repo}`, () =>
    store.listPullRequests(core.db, row.id, { state: state ?? undefined, order: "desc" }),
  );
  const views: PullRequestView[] = [];
  for (const pull of pulls) views.push(await viewOf(core, row, pull));
  return views;
}
