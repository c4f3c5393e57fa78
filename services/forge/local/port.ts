/**
 * The local forge as the queue sees it: {@link ForgePort} over real git repositories and
 * PostgreSQL rows (docs/local-forge.md). Reads take no lock; every write runs in a repository
 * write (write-context.ts) as the bot user, and emits what a GitHub webhook would map to.
 */
import { ForgeError, type CheckState, type ForgePort, type PullRequestSnapshot, type RepoName } from "../types.js";
import { localForgeStore as store } from "../../store/index.js";
import {
  addNote,
  createSpeculativeBranch,
  fastForwardBranch,
  findBranchSha,
  getBranchSha,
  readFile,
  updateHeadWithBase,
  validateBranchName,
} from "./git/index.js";
import { asForgeError, gitOf, OWN_CHECK_APP, readPull, readRepository, type ForgeCore } from "./core.js";
import { reconciliationFacts } from "./reconcile-reads.js";
import { recordBranchMove } from "./branch-moves.js";
import { declaredChecks, type CiSignals } from "./ci-requests.js";
import { writeCheckRun } from "./check-runs.js";
import { rerunChecksOf } from "./check-actions.js";
import { mergeBatch } from "./merges.js";
import { closePull, commentPull, editPull, labelPull, openPull } from "./pull-actions.js";
import { removeBranch } from "./repository-actions.js";
import { buildSnapshot, checkRunOf } from "./snapshot.js";
import { inRepository } from "./write-context.js";
import { localWorkflowActions } from "./workflow-port.js";

/** The configuration file names, in the order they are tried (docs/configuration.md). */
export const CONFIG_PATHS: readonly string[] = [".yardmaster.yml", ".github/yardmaster.yml"];

/** What the local forge's required checks come from, shown next to the conditions they add. */
export const LOCAL_CI_REQUIREMENT = "🛡 required by the local CI (.yardmaster/ci.yml)";

/** How many snapshots are built at once by a listing (each runs a few git commands). */
const SNAPSHOT_CONCURRENCY = 4;

/** The port plus the local forge's own edit, which can also retarget a pull request (`base`). */
export type LocalForgePort = ForgePort & {
  /** Edits a pull request's title, body or base (ForgeService.EditPullRequest). @throws ForgeError */
  editPullRequest(
    repo: RepoName,
    number: number,
    input: { title?: string; body?: string; base?: string },
  ): Promise<void>;
};

/** Builds the port. Every method throws ForgeError only. */
export function createLocalForgePort(core: ForgeCore, signals: CiSignals): LocalForgePort {
  const write = <T>(repo: string, what: string, fn: Parameters<typeof inRepository<T>>[3]) =>
    inRepository(core, repo, { what }, fn);

  const port: LocalForgePort = {
    ...localWorkflowActions(write, signals),

    async getPullRequest(repo, number) {
      const row = await readRepository(core, repo);
      return buildSnapshot(core, row, await readPull(core.db, row, number));
    },

    async listOpenPullRequests(repo, only = {}) {
      const row = await readRepository(core, repo);
      const all = await asForgeError(`listing pull requests of ${repo}`, () =>
        store.listPullRequests(core.db, row.id, { state: "open", order: "asc" }),
      );
      const pulls = all.filter(
        (p) =>
          (only.headSha === undefined || p.headSha === only.headSha) &&
          (only.base === undefined || p.baseBranch === only.base),
      );
      const snapshots: PullRequestSnapshot[] = [];
      for (let i = 0; i < pulls.length; i += SNAPSHOT_CONCURRENCY) {
        snapshots.push(
          ...(await Promise.all(pulls.slice(i, i + SNAPSHOT_CONCURRENCY).map((p) => buildSnapshot(core, row, p)))),
        );
      }
      return snapshots;
    },

    // Reconciliation reads (reconciliation-port.ts; reconcile-reads.ts).
    reconciliationFacts: (repo, ask) => reconciliationFacts(core, repo, ask, (sha) => port.getCommitChecks(repo, sha)),

    async getCommitChecks(repo, sha) {
      const row = await readRepository(core, repo);
      const rows = await asForgeError(`reading the checks of ${sha} in ${repo}`, () =>
        store.newestCheckRunsOfCommit(core.db, row.id, sha),
      );
      return rows.map((r) => checkRunOf(core, repo, r));
    },

    requestBudget: () => null,

    async findOpenPullRequest(repo, head, base) {
      const row = await readRepository(core, repo);
      const what = `finding the pull request from ${head} into ${base} of ${repo}`;
      const pulls = await asForgeError(what, () => store.openPullsWithHead(core.db, row.id, head));
      return pulls.find((p) => p.baseBranch === base)?.number ?? null;
    },

    async getDefaultBranch(repo) {
      return (await readRepository(core, repo)).defaultBranch;
    },

    async readConfigFile(repo) {
      const row = await readRepository(core, repo);
      const sha = await getBranchSha(gitOf(row), row.defaultBranch);
      for (const path of CONFIG_PATHS) {
        const text = await readFile(gitOf(row), sha, path);
        if (text !== null) return { path, text, sha };
      }
      return null;
    },

    async readFile(repo, ref, path) {
      return readFile(gitOf(await readRepository(core, repo)), ref, path);
    },

    async getBranchSha(repo, branch) {
      return getBranchSha(gitOf(await readRepository(core, repo)), branch);
    },

    createSpeculativeBranch: (repo, branch, baseSha, pulls, options) =>
      write(repo, `building speculative branch ${branch}`, async (ctx) => {
        await validateBranchName(branch);
        if (branch === ctx.repo.defaultBranch)
          throw new ForgeError(
            "invalid",
            `${branch} is the default branch of ${repo}; a speculative branch cannot replace it`,
          );
        const before = await findBranchSha(ctx.git, branch);
        const after = await createSpeculativeBranch(ctx.git, branch, baseSha, pulls, ctx.now);
        await recordBranchMove(ctx, signals, {
          branch,
          before,
          after,
          by: await ctx.bot(),
          checks: `speculative branch ${branch}`,
        });
        // The batch's notes with the branch, in the same write (git/notes.ts).
        for (const ref of options?.notes?.refs ?? []) await addNote(ctx.git, ref, after, options!.notes!.text, ctx.now);
        return after;
      }),

    addNotes: (repo, input) =>
      write(repo, `adding notes to ${input.sha}`, async (ctx) => {
        for (const ref of input.refs) await addNote(ctx.git, ref, input.sha, input.text, ctx.now);
      }),

    deleteBranch: async (repo, branch) => {
      await write(repo, `deleting branch ${branch}`, (ctx) => removeBranch(ctx, signals, branch, () => ctx.bot()));
    },

    openDraftPullRequest: (repo, input) =>
      write(repo, `opening a draft pull request from ${input.head}`, async (ctx) =>
        openPull(ctx, signals, { ...input, author: await ctx.bot(), draft: true }),
      ),

    editPullRequest: (repo, number, input) =>
      write(repo, `editing pull request #${number}`, (ctx) => editPull(ctx, number, input)),

    updatePullRequest: (repo, number, input) =>
      port.editPullRequest(repo, number, { title: input.title, body: input.body }),

    closePullRequest: (repo, number) => write(repo, `closing pull request #${number}`, (ctx) => closePull(ctx, number)),

    updatePullRequestWithBase: (repo, number, method) =>
      write(repo, `updating pull request #${number} with its base`, async (ctx) => {
        const pull = await readPull(ctx.client, ctx.repo, number);
        if (pull.state !== "open") throw new ForgeError("invalid", `pull request #${number} is ${pull.state}`);
        const after = await updateHeadWithBase(ctx.git, {
          head: pull.headBranch,
          base: pull.baseBranch,
          method,
          date: ctx.now,
          expectedHeadSha: pull.headSha,
          pullRequest: number,
        });
        await recordBranchMove(ctx, signals, {
          branch: pull.headBranch,
          before: pull.headSha,
          after,
          by: await ctx.bot(),
        });
        return after;
      }),

    mergePullRequest: (repo, number, input) =>
      write(repo, `merging pull request #${number}`, async (ctx) => {
        const pull = await readPull(ctx.client, ctx.repo, number);
        const base = await findBranchSha(ctx.git, pull.baseBranch);
        if (base === null)
          throw new ForgeError("not_found", `base branch ${pull.baseBranch} of pull request #${number} does not exist`);
        const pulls = [
          {
            number,
            headSha: input.expectedHeadSha,
            commitTitle: input.commitTitle,
            commitMessage: input.commitMessage,
          },
        ];
        return (
          await mergeBatch(ctx, signals, { base: pull.baseBranch, expectedBaseSha: base, method: input.method, pulls })
        ).newBaseSha;
      }),

    mergePullRequests: (repo, input) =>
      write(repo, `merging into ${input.base}`, (ctx) => mergeBatch(ctx, signals, input)),

    fastForwardBranch: (repo, branch, sha) =>
      write(repo, `fast-forwarding ${branch}`, async (ctx) => {
        const before = await fastForwardBranch(ctx.git, branch, sha);
        const after = await getBranchSha(ctx.git, branch);
        await recordBranchMove(ctx, signals, { branch, before, after, by: await ctx.bot() });
      }),

    rerunChecks: (repo, input) => rerunChecksOf(core, signals, repo, input),

    upsertCheckRun: async (repo, input) => {
      if (input.name.trim() === "") throw new ForgeError("invalid", "name: a check run needs a name");
      if (input.status === "completed" && (input.conclusion === null || input.conclusion === "pending")) {
        throw new ForgeError(
          "invalid",
          `conclusion: a completed check run needs a conclusion (got ${input.conclusion ?? "null"})`,
        );
      }
      const state: CheckState = input.status === "completed" ? input.conclusion! : "pending";
      await writeCheckRun(core, repo, {
        sha: input.headSha,
        name: input.name,
        app: OWN_CHECK_APP,
        state,
        description: input.title,
        detailsUrl: null,
        output: input.summary,
      });
    },

    comment: (repo, number, body) =>
      write(repo, `commenting on #${number}`, async (ctx) => commentPull(ctx, number, body, await ctx.bot())),

    async findOwnComment(repo, number, text) {
      const row = await readRepository(core, repo);
      const pull = await readPull(core.db, row, number);
      const bot = await asForgeError("reading the bot user", () => store.findLocalUser(core.db, core.botLogin));
      if (bot === null) return null;
      return asForgeError(`reading the comments of #${number}`, () =>
        store.findCommentContaining(core.db, { pullRequestId: pull.id, authorId: bot.id, text }),
      );
    },

    addLabels: async (repo, number, labels) => {
      await write(repo, `labelling #${number}`, (ctx) => labelPull(ctx, number, labels, []));
    },

    removeLabels: async (repo, number, labels) => {
      await write(repo, `unlabelling #${number}`, (ctx) => labelPull(ctx, number, [], labels));
    },

    async getBranchProtection(repo, branch) {
      const git = gitOf(await readRepository(core, repo));
      // A branch that does not exist protects nothing, as on GitHub (its 404 for the branch): the
      // queue learns of the deletion from its event, and a re-evaluation meanwhile must not fail.
      const sha = await findBranchSha(git, branch);
      return {
        requiredChecks: sha === null ? [] : await declaredChecks(git, sha),
        requiredApprovals: 0,
        requireConversationResolution: false,
        description: LOCAL_CI_REQUIREMENT,
      };
    },

    async getPermission(repo, login) {
      await readRepository(core, repo);
      const user = await asForgeError(`reading the permission of ${login}`, () => store.findLocalUser(core.db, login));
      return user?.permission ?? "none";
    },
  };
  return port;
}
