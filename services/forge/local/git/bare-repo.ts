/**
 * A handle on one bare repository of the local forge, and where repositories live on disk:
 * `<data dir>/repos/<owner>/<name>.git` (docs/local-forge.md "Storage").
 */
import { stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { ForgeError, type RepoName } from "../../types.js";
import { GitCommandError, gitText, runGit } from "./git-command.js";
import { gitFailure, withGitFailure } from "./errors.js";
import { branchRef, validateBranchName } from "./refs.js";
import type { BareRepo } from "./repo-handle.js";

export type { BareRepo, RefMoveObserver } from "./repo-handle.js";

const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const NAME = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * Splits and checks a full repository name. Owner: letters, digits, `-` (1-39, not starting with
 * `-`); name: letters, digits, `.`, `_`, `-` (1-100, not `.` or `..`): GitHub's rules, which also
 * keep the name from escaping the data directory.
 * @throws ForgeError invalid naming the bad part
 */
export function parseRepoName(fullName: RepoName): { owner: string; name: string } {
  const parts = fullName.split("/");
  if (parts.length !== 2) throw new ForgeError("invalid", `repository "${fullName}" must be written owner/name`);
  const [owner, name] = parts as [string, string];
  if (!OWNER.test(owner))
    throw new ForgeError(
      "invalid",
      `repository owner "${owner}" must be 1-39 letters, digits or "-", not starting with "-"`,
    );
  if (!NAME.test(name) || name === "." || name === "..") {
    throw new ForgeError("invalid", `repository name "${name}" must be 1-100 letters, digits, ".", "_" or "-"`);
  }
  return { owner, name };
}

/**
 * Where the bare repository of `fullName` lives: `<dataDir>/repos/<owner>/<name>.git` (absolute).
 * @throws ForgeError invalid for a bad repository name
 */
export function repositoryPath(dataDir: string, fullName: RepoName): string {
  const { owner, name } = parseRepoName(fullName);
  return join(resolve(dataDir), "repos", owner, `${name}.git`);
}

/**
 * Opens an existing bare repository.
 * @param gitDir path of the bare repository
 * @param name name for messages (default: the path)
 * @throws ForgeError not_found when the path is not a bare git repository
 */
export async function openRepository(gitDir: string, name: string = gitDir): Promise<BareRepo> {
  const absolute = resolve(gitDir);
  const exists = await stat(absolute).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!exists) throw new ForgeError("not_found", `repository ${name} does not exist`);
  let bare: string;
  try {
    bare = await gitText(absolute, ["rev-parse", "--is-bare-repository"]);
  } catch (error) {
    throw new ForgeError("not_found", `repository ${name} is not a git repository`, undefined, { cause: error });
  }
  if (bare !== "true") throw new ForgeError("not_found", `repository ${name} is not a bare git repository`);
  return { gitDir: absolute, name };
}

/**
 * The default branch: the branch HEAD names (it may be unborn in an empty repository).
 * @throws ForgeError not_found when HEAD is detached (no default branch)
 */
export async function getDefaultBranch(repo: BareRepo): Promise<string> {
  try {
    const ref = await gitText(repo.gitDir, ["symbolic-ref", "--quiet", "HEAD"]);
    if (ref.startsWith("refs/heads/")) return ref.slice("refs/heads/".length);
  } catch (error) {
    if (!(error instanceof GitCommandError && error.exitCode === 1)) {
      throw gitFailure(`reading HEAD of ${repo.name}`, error);
    }
  }
  throw new ForgeError("not_found", `repository ${repo.name} has no default branch (HEAD is detached)`);
}

/**
 * Makes `branch` the default branch (HEAD). The branch need not exist yet.
 * @throws ForgeError invalid for a bad branch name
 */
export async function setDefaultBranch(repo: BareRepo, branch: string): Promise<void> {
  await validateBranchName(branch);
  await withGitFailure(`setting the default branch of ${repo.name}`, () =>
    runGit(repo.gitDir, ["symbolic-ref", "HEAD", branchRef(branch)]),
  );
}
