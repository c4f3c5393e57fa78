/**
 * The GitHub App adapter of the forge port (`FORGE=github`; services/forge/types.ts `ForgePort`,
 * docs/deployment.md "The operational contract", docs/github.md). Each method finds the App's
 * installation on the repository (client.ts), makes its REST calls (one module per concern) and
 * converts every failure to a {@link ForgeError} (errors.ts), so callers see only the port's closed set of error kinds.
 */
import { type ForgePort, MergeRefusedError, type RepoName, type SpeculativeBranchOptions } from "../types.js";
import { readBranchProtection } from "./branch-protection.js";
import { BRANCH_READS_TTL_MS, BranchReads, type BranchAnswers, type RepositoryAnswer } from "./branch-reads.js";
import { addGithubNotes } from "./batch-notes.js";
import { upsertOwnCheckRun } from "./check-run.js";
import { upsertOwnDeployment } from "./deployment.js";
import { createGithubAppClient, type GithubAppOptions, type GithubOctokit } from "./client.js";
import { readConfig, readTextFile } from "./contents.js";
import { githubStatus, toForgeError } from "./errors.js";
import { addIssueLabels, findOwnComment, postComment, removeIssueLabels, userPermission } from "./issues.js";
import { planLanding } from "./landing-plan.js";
import { acceptedMethods, readLandingRules, type LandingRules } from "./landing-rules.js";
import { LabelIds } from "./label-ids.js";
import { mergeBatch, type LandingEnv } from "./merge-batch.js";
import { mergePull } from "./merge-pull.js";
import { closePull, editPull, openDraft } from "./pull-writes.js";
import { readOpenPullRequests, readPullRequest } from "./read-pull.js";
import { commitChecks, reconciliationFacts } from "./reconcile-reads.js";
import { branchSha, fastForward, removeBranch } from "./refs.js";
import { RepositoryNodeIds } from "./ref-updates.js";
import { repoParams, type RepoParams } from "./repo-name.js";
import { rerunFailedJobs } from "./rerun-checks.js";
import { findOpenPull } from "./find-pull.js";
import { buildSpeculativeBranch, type BuildShape } from "./speculative-branch.js";
import { SpeculativeChains } from "./speculative-chains.js";
import { TtlCache } from "./ttl-cache.js";
import { updateWithBase } from "./update-with-base.js";
import { githubWorkflowActions } from "./workflow-actions.js";

/** What {@link createGithubForge} needs: the App's credentials and, optionally, HTTP tuning. */
export interface GithubForgeDeps extends GithubAppOptions {
  /**
   * Sleeps between reads while GitHub updates a fork's branch in the background, and between
   * attempts of a merge GitHub answered "Base branch was modified" (ms); default setTimeout.
   */
  wait?: (ms: number) => Promise<void>;
  /**
   * Names of the check runs the App posts (the queue's summary check): when a branch requires one,
   * it is concluded just before a landing so that it never blocks it (own-checks.ts). Default none.
   */
  ownCheckNames?: readonly string[];
}

/**
 * How long the landing rules of a base branch are kept, in ms (a refusal drops them at once): as
 * long as the answers they come from (branch-reads.ts: the repository, classic protection,
 * rulesets, shared with the branch protection and the default branch; a change of settings is seen
 * within that time; docs/github.md "Request budget").
 */
export const LANDING_RULES_TTL_MS = BRANCH_READS_TTL_MS;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const SILENT = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * How long a repository's default branch is kept without asking GitHub again, ms: it is read on
 * every push (is the pushed branch the default one, whose configuration file counts?) and rarely
 * changes; it comes from the repository's kept answer (branch-reads.ts; docs/github.md "Request budget").
 */
export const DEFAULT_BRANCH_TTL_MS = BRANCH_READS_TTL_MS;
/** How long a branch's protection (classic and rulesets) is kept, ms: its answers are shared with the landing rules (branch-reads.ts). */
export const PROTECTION_TTL_MS = BRANCH_READS_TTL_MS;

/**
 * Creates the adapter. No request is made until a method is called.
 * @throws ForgeError invalid when the app id or private key is malformed
 */
export function createGithubForge(deps: GithubForgeDeps): ForgePort {
  const client = createGithubAppClient(deps);
  const wait = deps.wait ?? sleep;
  const log = deps.log ?? SILENT;
  /** The answers the landing rules, the branch protection and the default branch share (branch-reads.ts). */
  const branchReads = new BranchReads(client.now);
  /** The landing rules derived from each pair of kept answers (a new answer: derived again). */
  const rulesOf = new WeakMap<
    Promise<BranchAnswers>,
    { repository: Promise<RepositoryAnswer>; rules: Promise<LandingRules> }
  >();

  /**
   * The landing rules of `base` in `repo`, from its answers kept {@link LANDING_RULES_TTL_MS}
   * (branch-reads.ts): derived again (with the rulesets' bypass reads) only when an answer was read again.
   */
  function landingRules(gh: GithubOctokit, repo: RepoName, params: RepoParams, base: string): Promise<LandingRules> {
    const branch = branchReads.branch(gh, repo, params, base),
      repository = branchReads.repository(gh, repo, params);
    const known = rulesOf.get(branch);
    if (known !== undefined && known.repository === repository) return known.rules;
    const rules = client.appSlug(repo).then((slug) => readLandingRules(gh, params, base, slug, { repository, branch }));
    rulesOf.set(branch, { repository, rules });
    rules.catch(() => rulesOf.delete(branch));
    return rules;
  }

  /** What a landing in `repo` needs (merge-batch.ts). */
  async function landingEnv(gh: GithubOctokit, repo: RepoName, params: RepoParams): Promise<LandingEnv> {
    return {
      wait,
      log,
      bot: await client.botLogin(repo),
      own: { appId: client.appId, names: deps.ownCheckNames ?? [] },
      rules: (base) => landingRules(gh, repo, params, base),
      forgetRules: (base) => branchReads.forget(repo, base),
    };
  }

  /** The shape of a check branch for `options` (speculative-branch.ts). */
  async function buildShape(
    gh: GithubOctokit,
    repo: RepoName,
    params: RepoParams,
    options: SpeculativeBranchOptions | undefined,
  ): Promise<BuildShape> {
    if (options?.base === undefined) return { linear: false, signed: false };
    const rules = await landingRules(gh, repo, params, options.base);
    // A landing GitHub would refuse whatever the checks say is refused now, before CI runs for nothing.
    planLanding(
      { base: options.base, expectedBaseSha: "", method: options.method ?? null, pulls: [], checkPullRequest: 0 },
      rules,
    );
    const method = options.method ?? acceptedMethods(rules)[0];
    const pushes = method === "fast-forward";
    return {
      // A batch that lands through its own pull request by rebase needs commits GitHub can replay.
      linear: (method === "rebase" && rules.merge.strict) || (pushes && rules.push.linear),
      signed: pushes && rules.push.signatures,
    };
  }

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

  /** The repositories' label lists, for the numeric label ids GraphQL does not give (label-ids.ts). */
  const labelIds = new LabelIds(client.now);
  /** The repositories' node ids, for the refs written in one mutation (ref-updates.ts). */
  const nodeIds = new RepositoryNodeIds(client.now);
  const ctx = (repo: RepoName, params: RepoParams) => ({ name: repo, params, appId: client.appId, labelIds });
  /** The speculative branches built, for the batches behind them (speculative-chains.ts). */
  const chains = new SpeculativeChains(client.now);
  /** Ids of the App's check runs it wrote: repository, head SHA and name. */
  const checkRunIds = new TtlCache<string, number>(24 * 3_600_000, 50_000, client.now);
  const defaultBranchOf = async (repo: RepoName, gh: GithubOctokit, params: RepoParams) =>
    (await branchReads.repository(gh, repo, params)).default_branch;
  /** The repository's node id from its kept answer (the same read as the default branch's). */
  const nodeIdRead = (gh: GithubOctokit, repo: RepoName, params: RepoParams) => async () =>
    (await branchReads.repository(gh, repo, params)).node_id;

  return {
    ...githubWorkflowActions(inRepo),
    getPullRequest: (repo, number) =>
      inRepo(repo, `reading pull request #${number}`, (gh, p) => readPullRequest(gh, ctx(repo, p), number)),
    listOpenPullRequests: (repo, only) =>
      inRepo(repo, "listing open pull requests", (gh, p) => readOpenPullRequests(gh, ctx(repo, p), only)),
    reconciliationFacts: (repo, ask) =>
      inRepo(repo, "reading what reconciliation compares", (gh, p) => reconciliationFacts(gh, ctx(repo, p), ask)),
    getCommitChecks: (repo, sha) =>
      inRepo(repo, `reading the checks of ${sha}`, (gh, p) => commitChecks(gh, ctx(repo, p), sha)),
    requestBudget: (repo) => client.rateFigures(repo),
    findOpenPullRequest: (repo, head, base) =>
      inRepo(repo, `finding the pull request from ${head} into ${base}`, (gh, p) => findOpenPull(gh, p, head, base)),
    getDefaultBranch: (repo) => inRepo(repo, "reading the default branch", (gh, p) => defaultBranchOf(repo, gh, p)),
    readConfigFile: (repo) =>
      inRepo(repo, "reading the configuration file", (gh, p) => readConfig(gh, p, () => defaultBranchOf(repo, gh, p))),
    readFile: (repo, ref, path) => inRepo(repo, `reading ${path} at ${ref}`, (gh, p) => readTextFile(gh, p, ref, path)),
    getBranchSha: (repo, branch) => inRepo(repo, `reading branch ${branch}`, (gh, p) => branchSha(gh, p, branch)),
    createSpeculativeBranch: (repo, branch, baseSha, pulls, options) =>
      inRepo(repo, `building speculative branch ${branch}`, async (gh, p) =>
        buildSpeculativeBranch(gh, p, branch, baseSha, pulls, await buildShape(gh, repo, p, options), {
          chains,
          repo,
          repositoryId: () => nodeIds.idOf(gh, p, nodeIdRead(gh, repo, p)),
          notes: options?.notes,
          log,
        }),
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
      inRepo(repo, `merging pull request #${number} (${input.method ?? "the repository's default method"})`, (gh, p) =>
        mergePull(gh, p, number, input, {
          wait,
          log,
          resolve: async (base) => {
            const method = acceptedMethods(await landingRules(gh, repo, p, base))[0];
            if (method === undefined)
              throw new MergeRefusedError("protection", `no merge method is accepted on ${base} of ${repo}`, number);
            return method;
          },
        }),
      ),
    mergePullRequests: (repo, input) =>
      inRepo(
        repo,
        `merging ${input.pulls.map((p) => `#${p.number}`).join(", ")} into ${input.base} (${input.method ?? "the repository's default method"})`,
        async (gh, p) => mergeBatch(gh, p, input, await landingEnv(gh, repo, p)),
      ),
    fastForwardBranch: (repo, branch, sha) =>
      inRepo(repo, `fast-forwarding ${branch}`, (gh, p) => fastForward(gh, p, branch, sha)),
    rerunChecks: (repo, input) =>
      inRepo(repo, `re-running ${input.checks.join(", ")} at ${input.headSha}`, async (gh, p) => {
        await rerunFailedJobs(gh, p, input);
      }),
    upsertCheckRun: (repo, input) =>
      inRepo(repo, `posting check run ${input.name}`, async (gh, p) => {
        const key = `${repo.toLowerCase()} ${input.headSha} ${input.name}`;
        checkRunIds.set(key, await upsertOwnCheckRun(gh, p, client.appId, input, checkRunIds.get(key)));
      }),
    upsertDeployment: (repo, input) =>
      inRepo(repo, `posting deployment ${input.environment}`, (gh, p) =>
        upsertOwnDeployment(gh, p, () => client.botLogin(repo), input),
      ),
    addNotes: (repo, input) =>
      inRepo(repo, `adding notes to ${input.sha}`, (gh, p) =>
        addGithubNotes(gh, p, input, () => nodeIds.idOf(gh, p, nodeIdRead(gh, repo, p))),
      ),
    comment: (repo, number, body) =>
      inRepo(repo, `commenting on #${number}`, (gh, p) => postComment(gh, p, number, body)),
    findOwnComment: (repo, number, text) =>
      inRepo(repo, `reading the comments of #${number}`, async (gh, p) =>
        findOwnComment(gh, p, number, text, await client.botLogin(repo)),
      ),
    addLabels: (repo, number, labels) =>
      inRepo(repo, `labelling #${number}`, async (gh, p) => {
        // GitHub's answer names the labels' ids: kept, so the next read needs no label list.
        labelIds.learn(repo, await addIssueLabels(gh, p, number, labels));
      }),
    removeLabels: (repo, number, labels) =>
      inRepo(repo, `unlabelling #${number}`, (gh, p) => removeIssueLabels(gh, p, number, labels)),
    getBranchProtection: (repo, branch) =>
      inRepo(repo, `reading the protection of ${branch}`, (gh, p) =>
        readBranchProtection(gh, p, branch, () => branchReads.branch(gh, repo, p, branch)),
      ),
    getPermission: (repo, login) =>
      inRepo(repo, `reading the permission of ${login}`, (gh, p) => userPermission(gh, p, login)),
  };
}
