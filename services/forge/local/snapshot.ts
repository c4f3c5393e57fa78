/**
 * A {@link PullRequestSnapshot} of the local forge: the rows (title, author, labels, reviews,
 * check runs of the head SHA, newest per name...) plus the git facts (files, lines, commits,
 * commits behind, conflict) computed against the base tip while open, and against the base as it
 * was when closed or merged afterwards, so a merged pull request keeps its own diff.
 * docs/domain.md §2.2, docs/local-forge.md "Pull request snapshots".
 */
import type { CheckRun, PullRequestSnapshot } from "../types.js";
import { localForgeStore as store } from "../../store/index.js";
import { getBranchSha, pullRequestFacts } from "./git/index.js";
import { asForgeError, checkRunUrl, gitOf, LOCAL_CI_APP, pullUrl, type ForgeCore } from "./core.js";

/**
 * A check run row as the port reports it. A run of the local CI without a link of its own links to
 * its log ({@link checkRunUrl}), as a GitHub check run links to its CI's page.
 */
export function checkRunOf(core: ForgeCore, repo: string, row: store.CheckRunRow): CheckRun {
  return {
    name: row.name,
    state: row.state,
    description: row.description,
    detailsUrl: row.detailsUrl ?? (row.app === LOCAL_CI_APP ? checkRunUrl(core, repo, row.id) : null),
    app: row.app,
    startedAt: row.startedAt,
    completedAt: row.completedAt,
  };
}

/**
 * Builds the snapshot of one pull request.
 * @throws ForgeError not_found when the base branch of an open pull request or a commit is gone;
 *   transient when git or the database fails
 */
export async function buildSnapshot(
  core: ForgeCore,
  repo: store.LocalRepositoryRow,
  pull: store.PullRequestRow,
): Promise<PullRequestSnapshot> {
  const git = gitOf(repo);
  const open = pull.state === "open";
  const baseSha = open || pull.closedBaseSha === null ? await getBranchSha(git, pull.baseBranch) : pull.closedBaseSha;
  const [facts, rows] = await Promise.all([
    pullRequestFacts(git, baseSha, pull.headSha),
    asForgeError(`reading pull request #${pull.number}`, async () => {
      const q = core.db;
      const [labels, assignees, reviewers, reviews, checks] = await Promise.all([
        store.labelsOfPullRequest(q, pull.id),
        store.assigneesOfPullRequest(q, pull.id),
        store.requestedReviewersOfPullRequest(q, pull.id),
        store.reviewsOfPullRequest(q, pull.id),
        store.newestCheckRunsOfCommit(q, repo.id, pull.headSha),
      ]);
      return { labels, assignees, reviewers, reviews, checks };
    }),
  ]);
  return {
    repository: repo.fullName,
    number: pull.number,
    title: pull.title,
    body: pull.body,
    url: pullUrl(core, repo.fullName, pull.number),
    author: { id: pull.author.id, login: pull.author.login },
    base: pull.baseBranch,
    head: pull.headBranch,
    headSha: pull.headSha,
    baseSha,
    headRepoFullName: repo.fullName,
    draft: pull.draft,
    state: pull.state,
    locked: pull.locked,
    // As on GitHub, only an open pull request can be in conflict.
    conflict: open && facts.conflict,
    commitsBehind: facts.commitsBehind,
    labels: rows.labels.map((l) => ({ id: l.id, name: l.name, color: l.color, default: l.isDefault })),
    assignees: rows.assignees,
    requestedReviewers: rows.reviewers,
    requestedTeams: [],
    reviews: rows.reviews.map((r) => ({ author: r.author, state: r.state, submittedAt: r.submittedAt })),
    checks: rows.checks.map((c) => checkRunOf(core, repo.fullName, c)),
    files: facts.files,
    addedFiles: facts.addedFiles,
    modifiedFiles: facts.modifiedFiles,
    removedFiles: facts.removedFiles,
    addedLines: facts.addedLines,
    deletedLines: facts.deletedLines,
    commits: facts.commits.map((c) => ({
      sha: c.sha,
      title: c.title,
      message: c.message,
      author: c.author,
      committer: c.committer,
      parents: c.parents,
      verified: false,
      date: c.date,
    })),
    milestone: pull.milestone,
    mergedBy: pull.mergedBy,
    mergeCommitSha: pull.mergeCommitSha,
    createdAt: pull.createdAt,
    updatedAt: pull.updatedAt,
    closedAt: pull.closedAt,
    mergedAt: pull.mergedAt,
    fromFork: false,
    reviewThreadsResolved: [],
    reviewThreadsUnresolved: [],
  };
}
