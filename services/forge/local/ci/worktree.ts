/**
 * Temporary work trees of one exact commit, for running checks:
 * `git --git-dir=<bare> worktree add --detach <tmp> <sha>`, removed afterwards with
 * `git worktree remove --force`, falling back to deleting the directory and `git worktree prune`.
 * docs/local-forge.md "CI runner".
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pRetry from "p-retry";
import { ForgeError, type Sha } from "../../types.js";
import { runGit, type BareRepo } from "../git/index.js";

/** A checked-out work tree and how to get rid of it. */
export interface Worktree {
  /** Absolute path of the work tree. */
  dir: string;
  /**
   * Removes the work tree (idempotent).
   * @returns null when removed, else a sentence saying what could not be removed (never throws)
   */
  remove(): Promise<string | null>;
}

/**
 * Checks `sha` out, detached, in a fresh temporary directory.
 * @param tempRoot parent of the temporary directory (default: the OS temporary directory)
 * @throws ForgeError transient when git cannot create it in three attempts (git's stderr of the
 *   last in cause); the temporary directories are removed then
 */
export async function createWorktree(repo: BareRepo, sha: Sha, tempRoot: string = tmpdir()): Promise<Worktree> {
  // Checkouts of one repository run side by side (every CI slot, and removals that prune): a
  // failed one is tried again twice, in a fresh directory, before the check is reported as an error.
  const dir = await pRetry(() => checkout(repo, sha, tempRoot), {
    retries: CHECKOUT_RETRIES,
    minTimeout: 200,
    factor: 2,
  }).catch((error: unknown) => {
    throw new ForgeError("transient", `could not check out ${sha} of ${repo.name} for CI`, undefined, { cause: error });
  });
  let removed: Promise<string | null> | null = null;
  return { dir, remove: () => (removed ??= removeWorktree(repo, dir)) };
}

/** Further attempts of a checkout that failed. */
const CHECKOUT_RETRIES = 2;

/** One checkout attempt in a new temporary directory (removed again when git fails). */
async function checkout(repo: BareRepo, sha: Sha, tempRoot: string): Promise<string> {
  const dir = await mkdtemp(join(tempRoot, "yardmaster-ci-"));
  try {
    await runGit(repo.gitDir, ["worktree", "add", "--quiet", "--detach", dir, sha]);
    return dir;
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    await runGit(repo.gitDir, ["worktree", "prune"]).catch(() => {});
    throw error;
  }
}

async function removeWorktree(repo: BareRepo, dir: string): Promise<string | null> {
  const viaGit = await runGit(repo.gitDir, ["worktree", "remove", "--force", "--force", dir]).then(
    () => null,
    (e: unknown) => e,
  );
  if (viaGit === null) return null;
  // A check may leave files git refuses to delete: remove the directory, then forget the work tree.
  try {
    await rm(dir, { recursive: true, force: true });
    await runGit(repo.gitDir, ["worktree", "prune"]);
    return null;
  } catch (error) {
    return `could not remove the work tree ${dir}: ${error instanceof Error ? error.message : String(error)}`;
  }
}
