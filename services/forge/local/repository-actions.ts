/**
 * Creating repositories, pushing to them and deleting branches (ForgeService.CreateRepository,
 * PushBranch and DeleteBranch, the `yardmaster repo add|push|delete-branch` commands;
 * docs/local-forge.md "Pushing"). A new repository is a bare git repository in the
 * data directory plus its row; a push copies a commit from a git repository on this machine and
 * moves a branch by compare-and-swap, refusing a non-fast-forward unless forced, or merges the
 * commit into the branch's tip (`merge`: a change landing on a branch that moved meanwhile, as
 * `yardmaster replay` pushes outside changes). A deletion is a compare-and-swap to nothing.
 */
import { rm, stat } from "node:fs/promises";
import { ForgeError, type RepoName, type Sha } from "../types.js";
import { localForgeStore as store, withTransaction } from "../../store/index.js";
import {
  createMergeCommit,
  createRepository,
  deleteBranch,
  fetchCommit,
  findBranchSha,
  importRepository,
  isAncestor,
  isMergeConflict,
  listBranches,
  parseRepoName,
  repositoryPath,
  resolveCommit,
  setBranch,
  setDefaultBranch,
  validateBranchName,
  type BareRepo,
} from "./git/index.js";
import { asForgeError, type ForgeCore } from "./core.js";
import { recordBranchMove } from "./branch-moves.js";
import type { CiSignals } from "./ci-requests.js";
import { LocalForgeError, withField } from "./errors.js";
import { inRepository, type WriteContext } from "./write-context.js";

/** Input of {@link addRepository}. */
export interface AddRepositoryInput {
  repo: RepoName;
  /** Absolute path of a git repository to import; null = a new repository with one empty commit. */
  fromPath: string | null;
  /** Default branch; null = the imported repository's current branch, or "main". */
  defaultBranch: string | null;
  /** A revision of the imported repository for the default branch's tip; null = as imported. */
  atRef: string | null;
}

/**
 * Creates a repository; emits `branch_pushed` for each branch it starts with.
 * @returns its default branch and that branch's tip
 * @throws LocalForgeError conflict (already_exists) when it exists; not_found (field from_path or
 *   at_ref); invalid (field default_branch / repository)
 */
export async function addRepository(
  core: ForgeCore,
  input: AddRepositoryInput,
): Promise<{ defaultBranch: string; headSha: Sha }> {
  await withField("repository", async () => parseRepoName(input.repo));
  const path = repositoryPath(core.dataDir, input.repo);
  const exists = () =>
    new LocalForgeError("conflict", `repository ${input.repo} already exists`, { rpc: "already_exists" });
  if (
    (await asForgeError(`reading repository ${input.repo}`, () => store.findLocalRepository(core.db, input.repo))) !==
    null
  )
    throw exists();
  if (input.defaultBranch !== null) await withField("default_branch", () => validateBranchName(input.defaultBranch!));
  if (
    input.fromPath !== null &&
    !(await stat(input.fromPath).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  ) {
    throw new LocalForgeError("not_found", `${input.fromPath} is not a directory`, { field: "from_path" });
  }
  let git: BareRepo;
  let defaultBranch: string;
  try {
    if (input.fromPath === null) {
      defaultBranch = input.defaultBranch ?? "main";
      git = await createRepository({
        gitDir: path,
        name: input.repo,
        defaultBranch,
        initialCommit: { message: "Initial commit", date: core.now() },
      });
    } else {
      const imported = await withField("from_path", () =>
        importRepository({
          gitDir: path,
          name: input.repo,
          from: input.fromPath!,
          defaultBranch: input.defaultBranch ?? undefined,
        }),
      );
      git = imported.repo;
      defaultBranch = imported.defaultBranch;
    }
  } catch (error) {
    if (error instanceof ForgeError && error.kind === "conflict") throw exists();
    throw error;
  }
  try {
    if (input.atRef !== null)
      await setBranch(git, defaultBranch, await withField("at_ref", () => resolveCommit(git, input.atRef!)));
    await setDefaultBranch(git, defaultBranch);
    const branches = await listBranches(git);
    await core.ready;
    // The row and its events in one transaction: a crash cannot keep one without the other.
    const registered = await asForgeError(`registering repository ${input.repo}`, () =>
      withTransaction(core.db, async (client) => {
        const row = await store.insertLocalRepository(client, {
          fullName: input.repo,
          defaultBranch,
          path,
          createdAt: core.now(),
        });
        if (row === null) return null;
        const events = branches.map((b) => {
          const event = { kind: "branch_pushed", repo: row.fullName, branch: b.name, before: null } as const;
          return { ...event, after: b.sha, forced: false };
        });
        return core.events.store(client, events);
      }),
    );
    if (registered === null) throw exists();
    await core.events.deliver(registered);
    return { defaultBranch, headSha: branches.find((b) => b.name === defaultBranch)!.sha };
  } catch (error) {
    await rm(path, { recursive: true, force: true });
    throw error;
  }
}

/** Input of {@link pushBranch}. */
export interface PushInput {
  repo: RepoName;
  /** Absolute path of the git repository holding the commit. */
  fromPath: string;
  /** A revision there (branch, tag, SHA). */
  sourceRef: string;
  branch: string;
  /** Allow a move that is not a fast-forward. */
  force: boolean;
  pusher: string;
  /**
   * Merge the commit into the branch's tip (a merge commit, first parent the tip, written by
   * Yardmaster at the forge's clock) instead of moving the branch to it. Default false.
   */
  merge?: boolean;
}

/**
 * Pushes a commit to a branch (created when new). Moving a pull request's head synchronizes it
 * and queues its CI; a push that brings a pull request's head into its base merges it.
 * With `merge`, the commit is merged into the branch's existing tip with git's three-way merge
 * (`Merge <source_ref> into <branch>`, a merge commit even when the tip is an ancestor of the
 * commit); a commit the tip already contains changes nothing (before equals after). The move then
 * has exactly the events of any push (docs/local-forge.md "Pushing").
 * @returns the branch's tip before (null when new) and after
 * @throws LocalForgeError conflict (failed_precondition) for a non-fast-forward without force, or
 *   a merge that conflicts (naming the files); not_found (field from_path, source_ref; field
 *   branch when merging into a branch that does not exist); invalid (field branch; field merge
 *   when both merge and force are set); conflict when the branch moved meanwhile
 */
export async function pushBranch(
  core: ForgeCore,
  signals: CiSignals,
  input: PushInput,
): Promise<{ before: Sha | null; after: Sha }> {
  if (
    !(await stat(input.fromPath).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  ) {
    throw new LocalForgeError("not_found", `${input.fromPath} is not a directory`, { field: "from_path" });
  }
  if (input.merge && input.force)
    throw new LocalForgeError("invalid", "merge and force exclude each other: a merge never rewrites the branch", {
      field: "merge",
    });
  return inRepository(core, input.repo, { what: `pushing to ${input.branch}` }, async (ctx) => {
    await withField("branch", () => validateBranchName(input.branch));
    const pusher = await ctx.user(input.pusher);
    const source = await withField("source_ref", () => fetchCommit(ctx.git, input.fromPath, input.sourceRef));
    const before = await findBranchSha(ctx.git, input.branch);
    const after = input.merge ? await mergedTip(ctx.git, input, before, source, ctx.now) : source;
    if (before === after) return { before, after };
    if (before !== null && !input.force && !(await isAncestor(ctx.git, before, after))) {
      throw new LocalForgeError(
        "conflict",
        `${input.branch} is at ${before}, which ${after} does not contain: not a fast-forward (push with force to replace it)`,
        {
          field: "branch",
          rpc: "failed_precondition",
        },
      );
    }
    await setBranch(ctx.git, input.branch, after, { expectedOldSha: before });
    await recordBranchMove(ctx, signals, { branch: input.branch, before, after, by: pusher });
    return { before, after };
  });
}

/**
 * Deletes a branch by compare-and-swap and records the move: `branch_pushed` with after null, the
 * open pull requests it heads or is the base of closed, its CI jobs cancelled. The port's
 * `deleteBranch` (as the bot) and ForgeService.DeleteBranch (as a person) share it.
 * @param by who deletes it (asked only when the branch exists)
 * @returns the tip it had; null when it did not exist (then nothing happens)
 * @throws LocalForgeError invalid (failed_precondition, field branch) for the repository's default
 *   branch, which GitHub refuses to delete too; invalid (field branch) for a bad name
 */
export async function removeBranch(
  ctx: WriteContext,
  signals: CiSignals,
  branch: string,
  by: () => Promise<store.LocalUserRow>,
): Promise<Sha | null> {
  if (branch === ctx.repo.defaultBranch) {
    throw new LocalForgeError(
      "invalid",
      `${branch} is the default branch of ${ctx.repo.fullName}; it cannot be deleted`,
      {
        field: "branch",
        rpc: "failed_precondition",
      },
    );
  }
  const before = await withField("branch", () => findBranchSha(ctx.git, branch));
  if (before === null) return null;
  await deleteBranch(ctx.git, branch, { expectedOldSha: before });
  await recordBranchMove(ctx, signals, { branch, before, after: null, by: await by() });
  return before;
}

/**
 * Deletes a branch as a person (ForgeService.DeleteBranch, `yardmaster repo delete-branch`).
 * @returns the tip it had
 * @throws LocalForgeError not_found (field branch) when it does not exist; see {@link removeBranch}
 */
export async function deleteBranchAs(
  core: ForgeCore,
  signals: CiSignals,
  input: { repo: RepoName; branch: string; pusher: string },
): Promise<Sha> {
  return inRepository(core, input.repo, { what: `deleting branch ${input.branch}` }, async (ctx) => {
    const before = await removeBranch(ctx, signals, input.branch, () => ctx.user(input.pusher));
    if (before === null)
      throw new LocalForgeError("not_found", `no branch "${input.branch}" in ${ctx.repo.fullName}`, {
        field: "branch",
      });
    return before;
  });
}

/**
 * The tip of a merging push: `tip` itself when it already contains `source`, else a new merge
 * commit of `source` into `tip` (no ref moves).
 * @throws LocalForgeError not_found (field branch) when the branch does not exist; conflict
 *   (failed_precondition, field source_ref) naming the conflicting files
 */
async function mergedTip(git: BareRepo, input: PushInput, tip: Sha | null, source: Sha, date: Date): Promise<Sha> {
  if (tip === null)
    throw new LocalForgeError("not_found", `${input.branch} does not exist: there is nothing to merge into`, {
      field: "branch",
    });
  if (await isAncestor(git, source, tip)) return tip;
  try {
    return await createMergeCommit(git, {
      into: tip,
      from: source,
      message: `Merge ${input.sourceRef} into ${input.branch}`,
      date,
    });
  } catch (error) {
    if (!isMergeConflict(error)) throw error;
    throw new LocalForgeError(
      "conflict",
      error.message,
      { field: "source_ref", rpc: "failed_precondition" },
      { cause: error },
    );
  }
}
