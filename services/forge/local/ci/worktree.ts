/**
 * Temporary work trees of one exact commit, for running checks: a clone of the bare repository
 * that borrows its objects (`git clone --shared --no-checkout`, then `checkout --detach <sha>`),
 * deleted afterwards. Not `git worktree add`: a work tree registered in the bare repository shows
 * a null HEAD while it is being created, and a push that checks connectivity at that instant fails
 * with "bad object worktrees/.../HEAD". docs/local-forge.md "CI runner".
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
  // Checkouts of one repository run side by side (one per CI slot) while pushes land: a
  // failed one is tried again twice, in a fresh directory, before the check is reported as an error.
  const dir = await pRetry(() => checkout(repo, sha, tempRoot), {
    retries: CHECKOUT_RETRIES,
    minTimeout: 200,
    factor: 2,
  }).catch((error: unknown) => {
    throw new ForgeError("transient", `could not check out ${sha} of ${repo.name} for CI`, undefined, { cause: error });
  });
  let removed: Promise<string | null> | null = null;
  return { dir, remove: () => (removed ??= removeWorktree(dir)) };
}

/** Further attempts of a checkout that failed. */
const CHECKOUT_RETRIES = 2;

/** One checkout attempt in a new temporary directory (removed again when git fails). */
async function checkout(repo: BareRepo, sha: Sha, tempRoot: string): Promise<string> {
  const dir = await mkdtemp(join(tempRoot, "yardmaster-ci-"));
  try {
    await runGit(null, ["clone", "--quiet", "--shared", "--no-checkout", repo.gitDir, dir]);
    await runGit(join(dir, ".git"), ["--work-tree", dir, "checkout", "--quiet", "--detach", sha]);
    return dir;
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

async function removeWorktree(dir: string): Promise<string | null> {
  try {
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
    return null;
  } catch (error) {
    return `could not remove the work tree ${dir}: ${error instanceof Error ? error.message : String(error)}`;
  }
}
