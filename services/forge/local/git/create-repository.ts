/**
 * Creating the local forge's bare repositories: empty with a default branch, or imported from an
 * existing repository (every branch and tag, e.g. `yardmaster repo add owner/name --from PATH`).
 * Both build in a temporary sibling directory and rename it into place, so a failure never leaves
 * a half-made repository. docs/local-forge.md "Storage".
 */
import { mkdir, mkdtemp, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { ForgeError } from "../../types.js";
import { GitCommandError, gitText, runGit } from "./git-command.js";
import { gitFailure } from "./errors.js";
import { openRepository, type BareRepo } from "./bare-repo.js";
import { branchRef, listBranches, validateBranchName, type BranchTip } from "./refs.js";
import { emptyTree, writeYardmasterCommit } from "./write-commit.js";

/** Input of {@link createRepository}. */
export interface CreateRepositoryInput {
  /** Where the bare repository goes (must not exist). */
  gitDir: string;
  /** Name for messages, e.g. "owner/name". */
  name: string;
  defaultBranch: string;
  /** When given, the default branch starts at one empty commit (so it exists); else it is unborn. */
  initialCommit?: { message: string; date: Date };
}

/**
 * Creates a bare repository.
 * @throws ForgeError conflict when something exists at `gitDir`; invalid for a bad branch name
 */
export async function createRepository(input: CreateRepositoryInput): Promise<BareRepo> {
  await validateBranchName(input.defaultBranch);
  return buildInPlace(input.gitDir, input.name, async (tmp) => {
    await runGit(null, ["init", "--quiet", "--bare", `--initial-branch=${input.defaultBranch}`, tmp]);
    if (input.initialCommit !== undefined) {
      const repo: BareRepo = { gitDir: tmp, name: input.name };
      const sha = await writeYardmasterCommit(
        repo,
        await emptyTree(repo),
        [],
        input.initialCommit.message,
        input.initialCommit.date,
      );
      await runGit(tmp, ["update-ref", branchRef(input.defaultBranch), sha, "0".repeat(40)]);
    }
  });
}

/** Input of {@link importRepository}. */
export interface ImportRepositoryInput {
  gitDir: string;
  name: string;
  /** Path of an existing repository (bare or with a work tree). */
  from: string;
  /** Default branch; default: the branch the source's HEAD names. */
  defaultBranch?: string;
}

/** An imported repository with its default branch and branches. */
export interface ImportedRepository {
  repo: BareRepo;
  defaultBranch: string;
  branches: BranchTip[];
}

/**
 * Imports every branch and tag of the repository at `from` into a new bare repository.
 * @throws ForgeError not_found when `from` is not a git repository; invalid when it has no
 *   branches or the default branch is not among them; conflict when `gitDir` exists
 */
export async function importRepository(input: ImportRepositoryInput): Promise<ImportedRepository> {
  const source = resolve(input.from);
  let heads: string;
  try {
    heads = await gitText(null, ["ls-remote", "--symref", source, "HEAD", "refs/heads/*"]);
  } catch (error) {
    throw new ForgeError("not_found", `${input.from} is not a git repository`, undefined, { cause: error });
  }
  const symref = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(heads)?.[1];
  const sourceBranches = heads
    .split("\n")
    .filter((l) => /\trefs\/heads\//.test(l))
    .map((l) => l.slice(l.indexOf("\trefs/heads/") + 12));
  if (sourceBranches.length === 0) throw new ForgeError("invalid", `${input.from} has no branches to import`);
  const defaultBranch =
    input.defaultBranch ?? symref ?? (sourceBranches.includes("main") ? "main" : sourceBranches[0]!);
  if (!sourceBranches.includes(defaultBranch)) {
    throw new ForgeError("invalid", `default branch "${defaultBranch}" is not a branch of ${input.from}`);
  }
  const repo = await buildInPlace(input.gitDir, input.name, async (tmp) => {
    await runGit(null, ["init", "--quiet", "--bare", `--initial-branch=${defaultBranch}`, tmp]);
    await runGit(tmp, [
      "fetch",
      "--quiet",
      "--no-tags",
      source,
      "+refs/heads/*:refs/heads/*",
      "+refs/tags/*:refs/tags/*",
    ]);
  });
  return { repo, defaultBranch, branches: await listBranches(repo) };
}

/** Runs `build` on a fresh temporary directory next to `gitDir`, then renames it into place. */
async function buildInPlace(gitDir: string, name: string, build: (tmp: string) => Promise<void>): Promise<BareRepo> {
  const target = resolve(gitDir);
  if (
    await stat(target).then(
      () => true,
      () => false,
    )
  )
    throw new ForgeError("conflict", `repository ${name} already exists`);
  await mkdir(dirname(target), { recursive: true });
  const tmp = await mkdtemp(join(dirname(target), `.${basename(target)}.tmp-`));
  try {
    await build(tmp);
    await rename(tmp, target);
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    if (error instanceof ForgeError) throw error;
    if (error instanceof GitCommandError) throw gitFailure(`creating repository ${name}`, error);
    if ((error as NodeJS.ErrnoException).code === "ENOTEMPTY" || (error as NodeJS.ErrnoException).code === "EEXIST") {
      throw new ForgeError("conflict", `repository ${name} already exists`, undefined, { cause: error });
    }
    throw gitFailure(`creating repository ${name}`, error);
  }
  return openRepository(target, name);
}
