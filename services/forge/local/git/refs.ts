/**
 * Branches and refs of a bare repository: name validation, resolution, listing, and every move as
 * a compare-and-swap (`git update-ref <ref> <new> <old>`, atomic in git), so two writers never
 * silently overwrite each other. Rules: docs/local-forge.md "Refs".
 */
import { LRUCache } from "lru-cache";
import { ForgeError, type Sha } from "../../types.js";
import { GitCommandError, gitText, runGit } from "./git-command.js";
import { gitFailure, withGitFailure } from "./errors.js";
import type { BareRepo } from "./repo-handle.js";
import { isFullSha } from "./full-sha.js";

/** The all-zero object name: "this ref must not exist" in a compare-and-swap. */
export const ZERO_SHA = "0".repeat(40);

/** A branch and the commit it points at. */
export interface BranchTip {
  name: string;
  sha: Sha;
}

/** `refs/heads/<branch>`. */
export function branchRef(branch: string): string {
  return `refs/heads/${branch}`;
}

/**
 * Checks a branch name the way git does (`git check-ref-format`), plus git's own branch rules:
 * no leading `-`, not `HEAD`.
 * @throws ForgeError invalid naming the branch when git refuses it
 */
export async function validateBranchName(branch: string): Promise<void> {
  if (branch === "" || branch.startsWith("-") || branch === "HEAD" || branch.includes("\0")) {
    throw new ForgeError("invalid", `"${branch}" is not a valid branch name`);
  }
  await validateRefName(branchRef(branch), `"${branch}" is not a valid branch name`);
}

/** Ref names `git check-ref-format` accepted (a pure function of the name): not asked twice. */
const validRefNames = new LRUCache<string, true>({ max: 5000 });

/**
 * Checks a full ref name (`refs/...`) with `git check-ref-format` (once per accepted name).
 * @throws ForgeError invalid with `message` (or a default naming the ref)
 */
export async function validateRefName(ref: string, message = `"${ref}" is not a valid ref name`): Promise<void> {
  if (!ref.startsWith("refs/") || ref.includes("\0")) throw new ForgeError("invalid", message);
  if (validRefNames.has(ref)) return;
  try {
    await runGit(null, ["check-ref-format", ref]);
    validRefNames.set(ref, true);
  } catch (error) {
    if (error instanceof GitCommandError && error.exitCode === 1)
      throw new ForgeError("invalid", message, undefined, { cause: error });
    throw error;
  }
}

/**
 * Resolves a revision (SHA, branch, full ref, `sha^`) to the commit it names.
 * @returns the 40-hex commit SHA
 * @throws ForgeError not_found when it names no commit; invalid for an empty revision
 */
export async function resolveCommit(repo: BareRepo, rev: string): Promise<Sha> {
  const sha = await findCommit(repo, rev);
  if (sha === null) throw new ForgeError("not_found", `no commit "${rev}" in ${repo.name}`);
  return sha;
}

/**
 * Full SHAs known to name a commit, per repository (`<git dir>\0<sha>`), so resolving one again
 * starts no git process. A commit once written stays: the local forge never prunes, and git's
 * automatic gc prunes only objects unreachable for two weeks. An absent SHA is asked again each
 * time, since it may arrive later (a push, a fetch). docs/local-forge.md "Running git".
 */
const knownCommits = new LRUCache<string, true>({ max: 20000 });

/** Like {@link resolveCommit} but returns null when the revision names no commit. */
export async function findCommit(repo: BareRepo, rev: string): Promise<Sha | null> {
  if (rev.trim() === "" || rev.includes("\0")) throw new ForgeError("invalid", `"${rev}" is not a revision`);
  const fullSha = isFullSha(rev);
  if (fullSha && knownCommits.has(`${repo.gitDir}\0${rev}`)) return rev;
  return withGitFailure(`resolving "${rev}" in ${repo.name}`, async () => {
    const out = await runGit(repo.gitDir, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${rev}^{commit}`], {
      okExitCodes: [0, 1, 128],
    });
    const sha = out.stdout.toString("utf8").trim();
    if (out.exitCode !== 0 || !isFullSha(sha)) return null;
    if (fullSha && sha === rev) knownCommits.set(`${repo.gitDir}\0${rev}`, true);
    return sha;
  });
}

/**
 * The commit a branch points at.
 * @throws ForgeError not_found when the branch does not exist; invalid for a bad branch name
 */
export async function getBranchSha(repo: BareRepo, branch: string): Promise<Sha> {
  const sha = await findBranchSha(repo, branch);
  if (sha === null) throw new ForgeError("not_found", `no branch "${branch}" in ${repo.name}`);
  return sha;
}

/** Like {@link getBranchSha} but returns null when the branch does not exist. */
export async function findBranchSha(repo: BareRepo, branch: string): Promise<Sha | null> {
  await validateBranchName(branch);
  return readRef(repo, branchRef(branch));
}

/** The value of a full ref (`refs/...`), or null when it does not exist. */
export async function readRef(repo: BareRepo, ref: string): Promise<Sha | null> {
  return withGitFailure(`reading ${ref} in ${repo.name}`, async () => {
    const out = await runGit(repo.gitDir, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`], {
      okExitCodes: [0, 1],
    });
    const sha = out.stdout.toString("utf8").trim();
    return out.exitCode === 0 && sha !== "" ? sha : null;
  });
}

/** Every branch with its tip, sorted by name. */
export async function listBranches(repo: BareRepo): Promise<BranchTip[]> {
  const text = await withGitFailure(`listing branches of ${repo.name}`, () =>
    gitText(repo.gitDir, ["for-each-ref", "--format=%(objectname) %(refname)", "refs/heads/"]),
  );
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => ({ sha: line.slice(0, 40), name: line.slice(41 + "refs/heads/".length) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Atomically moves `ref` from `expectedOld` to `next`.
 * @param expectedOld the SHA the ref must hold now; null = the ref must not exist
 * @param next the new SHA (must name a commit); null = delete the ref
 * With a ref observer on `repo` (the local forge's journal), it is told before and after.
 * @throws ForgeError conflict when the ref does not hold `expectedOld` (someone moved it);
 *   not_found when `next` is not a commit; invalid for a bad ref name; what the observer throws
 */
export async function compareAndSwapRef(
  repo: BareRepo,
  ref: string,
  expectedOld: Sha | null,
  next: Sha | null,
): Promise<void> {
  await validateRefName(ref);
  const target = next === null ? null : await resolveCommit(repo, next);
  const old = expectedOld ?? ZERO_SHA;
  const args = target === null ? ["update-ref", "-d", ref, old] : ["update-ref", ref, target, old];
  const observed = repo.refMoves !== undefined && target !== expectedOld;
  if (observed) await repo.refMoves!.before(ref, expectedOld, target);
  try {
    await runGit(repo.gitDir, args);
  } catch (error) {
    const actual = await readRef(repo, ref);
    if (actual !== expectedOld) {
      throw new ForgeError(
        "conflict",
        `${ref} moved: expected ${expectedOld ?? "no ref"}, found ${actual ?? "no ref"}`,
        undefined,
        { cause: error },
      );
    }
    throw gitFailure(`updating ${ref} in ${repo.name}`, error);
  }
  if (observed) await repo.refMoves!.after(ref, expectedOld, target);
}

/**
 * Points a branch at `sha`.
 * @param options.expectedOldSha compare-and-swap guard: the SHA the branch must hold now, or null
 *   for "must not exist yet"; omitted = force (create or move whatever it holds)
 * @throws ForgeError conflict when the guard fails; not_found when `sha` is no commit; invalid name
 */
export async function setBranch(
  repo: BareRepo,
  branch: string,
  sha: Sha,
  options: { expectedOldSha?: Sha | null } = {},
): Promise<void> {
  await validateBranchName(branch);
  const ref = branchRef(branch);
  if (options.expectedOldSha !== undefined) return compareAndSwapRef(repo, ref, options.expectedOldSha, sha);
  const target = await resolveCommit(repo, sha);
  if (repo.refMoves) {
    const old = await readRef(repo, ref);
    return old === target ? undefined : compareAndSwapRef(repo, ref, old, target);
  }
  await withGitFailure(`moving ${ref} in ${repo.name}`, () => runGit(repo.gitDir, ["update-ref", ref, target]));
}

/**
 * Deletes a branch; deleting an absent branch is not an error.
 * @param options.expectedOldSha when given, delete only if the branch still holds it (conflict otherwise)
 */
export async function deleteBranch(
  repo: BareRepo,
  branch: string,
  options: { expectedOldSha?: Sha } = {},
): Promise<void> {
  await validateBranchName(branch);
  const ref = branchRef(branch);
  if (options.expectedOldSha !== undefined) return compareAndSwapRef(repo, ref, options.expectedOldSha, null);
  if (repo.refMoves) {
    const old = await readRef(repo, ref);
    return old === null ? undefined : compareAndSwapRef(repo, ref, old, null);
  }
  await withGitFailure(`deleting ${ref} in ${repo.name}`, () => runGit(repo.gitDir, ["update-ref", "-d", ref]));
}
