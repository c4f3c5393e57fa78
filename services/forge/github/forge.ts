/**
 * The GitHub App adapter of the forge port (`FORGE=github`; services/forge/types.ts `ForgePort`,
 * docs/deployment.md "The operational contract", docs/github.md). Each method finds the App's
 * installation on the repository (client.ts), makes its REST calls (one module per concern) and
 * converts every failure to a {@link ForgeError} (errors.ts), so callers see only the port's closed set of error kinds.
 */
import type { ForgePort, RepoName } from "../types.js";
import { readBranchProtection } from "./branch-protection.js";
import { upsertOwnCheckRun } from "./check-run.js";
import { createGithubAppClient, type GithubAppOptions, type GithubOctokit } from "./client.js";
import { readConfig, readDefaultBranch, readTextFile } from "./contents.js";
import { githubStatus, toForgeError } from "./errors.js";
import { addIssueLabels, findOwnComment, postComment, removeIssueLabels, userPermission } from "./issues.js";
import { mergeBatch } from "./merge-batch.js";
import { mergePull } from "./merge-pull.js";
import { closePull, editPull, openDraft } from "./pull-writes.js";
import { readOpenPullRequests, readPullRequest } from "./read-pull.js";
import { branchSha, fastForward, removeBranch } from "./refs.js";
import { repoParams, type RepoParams } from "./repo-name.js";
import { rerunFailedJobs } from "./rerun-checks.js";
import { findOpenPull } from "./find-pull.js";
import { buildSpeculativeBranch } from "./speculative-branch.js";
import { updateWithBase } from "./update-with-base.js";
import { githubWorkflowActions } from "./workflow-actions.js";

/** What {@link createGithubForge} needs: the App's credentials and, optionally, HTTP tuning. */
export interface GithubForgeDeps extends GithubAppOptions {
  /** Sleeps between reads while GitHub updates a fork's branch in the background (ms); default setTimeout. */
  wait?: (ms: number) => Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Creates the adapter. No request is made until a method is called.
 * @throws ForgeError invalid when the app id or private key is malformed
 */
export function createGithubForge(deps: GithubForgeDeps): ForgePort {
  const client = createGithubAppClient(deps);
  const wait = deps.wait ?? sleep;

  /** Runs one operation in `repo`, mapping every failure to a ForgeError. */
  async function inRepo<T>(
    repo: RepoName,
    operation: string,
    fn: (gh: GithubOctokit, params: RepoParams) => Promise<T>,
  ): Promise<T> {
    const params = repoParams(repo);
    try {
      return await fn(await client.forRepo(repo), params);
    } catch (e) {
      // A 401 with an installation token: the installation went away; look it up again next time.
      if (githubStatus(e) === 401) client.forget(repo);
      throw toForgeError(e, `${operation} in ${repo}`, client.now());
    }
  }

  const ctx = (repo: RepoName, params: RepoParams) => ({ name: repo, params, appId: client.appId });

  return {
    ...githubWorkflowActions(inRepo),
    getPullRequest: (repo, number) =>
      inRepo(repo, `reading pull request #${number}`, (gh, p) => readPullRequest(gh, ctx(repo, p), number)),
    listOpenPullRequests: (repo, only) =>
      inRepo(repo, "listing open pull requests", (gh, p) => readOpenPullRequests(gh, ctx(repo, p), only)),
    findOpenPullRequest: (repo, head, base) =>
      inRepo(repo, `finding the pull request from ${head} into ${base}`, (gh, p) => findOpenPull(gh, p, head, base)),
    getDefaultBranch: (repo) => inRepo(repo, "reading the default branch", readDefaultBranch),
    readConfigFile: (repo) => inRepo(repo, "reading the configuration file", readConfig),
    readFile: (repo, ref, path) => inRepo(repo, `reading ${path} at ${ref}`, (gh, p) => readTextFile(gh, p, ref, path)),
    getBranchSha: (repo, branch) => inRepo(repo, `reading branch ${branch}`, (gh, p) => branchSha(gh, p, branch)),
    createSpeculativeBranch: (repo, branch, baseSha, pulls) =>
      inRepo(repo, `building speculative branch ${branch}`, (gh, p) =>
        buildSpeculativeBranch(gh, p, branch, baseSha, pulls),
      ),
    deleteBranch: (repo, branch) => inRepo(repo, `deleting branch ${branch}`, (gh, p) => removeBranch(gh, p, branch)),
    openDraftPullRequest: (repo, input) =>
      inRepo(repo, `opening a draft pull request from ${input.head}`, (gh, p) => openDraft(gh, p, input)),
    updatePullRequest: (repo, number, input) =>
      inRepo(repo, `editing pull request #${number}`, (gh, p) => editPull(gh, p, number, input)),
    closePullRequest: (repo, number) =>
      inRepo(repo, `closing pull request #${number}`, (gh, p) => closePull(gh, p, number)),
    updatePullRequestWithBase: (repo, number, method) =>
      inRepo(repo, `updating pull request #${number} with its base (${method})`, (gh, p) =>
        updateWithBase(gh, p, number, method, wait),
      ),
    mergePullRequest: (repo, number, input) =>
      inRepo(repo, `merging pull request #${number} (${input.method})`, (gh, p) => mergePull(gh, p, number, input)),
    mergePullRequests: (repo, input) =>
      inRepo(
        repo,
        `merging ${input.pulls.map((p) => `#${p.number}`).join(", ")} into ${input.base} (${input.method})`,
        async (gh, p) => mergeBatch(gh, p, input, await client.botLogin(repo)),
      ),
    fastForwardBranch: (repo, branch, sha) =>
      inRepo(repo, `fast-forwarding ${branch}`, (gh, p) => fastForward(gh, p, branch, sha)),
    rerunChecks: (repo, input) =>
      inRepo(repo, `re-running ${input.checks.join(", ")} at ${input.headSha}`, async (gh, p) => {
        await rerunFailedJobs(gh, p, input);
      }),
    upsertCheckRun: (repo, input) =>
      inRepo(repo, `posting check run ${input.name}`, (gh, p) => upsertOwnCheckRun(gh, p, client.appId, input)),
    comment: (repo, number, body) =>
      inRepo(repo, `commenting on #${number}`, (gh, p) => postComment(gh, p, number, body)),
    findOwnComment: (repo, number, text) =>
      inRepo(repo, `reading the comments of #${number}`, async (gh, p) =>
        findOwnComment(gh, p, number, text, await client.botLogin(repo)),
      ),
    addLabels: (repo, number, labels) =>
      inRepo(repo, `labelling #${number}`, (gh, p) => addIssueLabels(gh, p, number, labels)),
    removeLabels: (repo, number, labels) =>
      inRepo(repo, `unlabelling #${number}`, (gh, p) => removeIssueLabels(gh, p, number, labels)),
    getBranchProtection: (repo, branch) =>
      inRepo(repo, `reading the protection of ${branch}`, (gh, p) => readBranchProtection(gh, p, branch)),
    getPermission: (repo, login) =>
      inRepo(repo, `reading the permission of ${login}`, (gh, p) => userPermission(gh, p, login)),
  };
}
