/**
 * Copying a commit (and everything it reaches) from another git repository on this machine into a
 * bare repository, without moving any ref: the first half of a push (`yardmaster repo push`,
 * ForgeService.PushBranch). The caller then moves a branch by compare-and-swap.
 * docs/local-forge.md "Pushing".
 */
import { resolve } from "node:path";
import { ForgeError, type Sha } from "../../types.js";
import { GitCommandError, runGit } from "./git-command.js";
import { gitFailure } from "./errors.js";
import type { BareRepo } from "./bare-repo.js";
import { isFullSha } from "./full-sha.js";

/**
 * Resolves `rev` (branch, tag, SHA, `HEAD~2`...) in the repository at `source` (bare or with a
 * work tree) and fetches that commit into `repo`.
 * @returns the commit's SHA
 * @throws ForgeError not_found when `source` is not a git repository or `rev` names no commit there;
 *   invalid for an empty revision; transient when the fetch fails
 */
export async function fetchCommit(repo: BareRepo, source: string, rev: string): Promise<Sha> {
  if (rev.trim() === "" || rev.includes("\0")) throw new ForgeError("invalid", `"${rev}" is not a revision`);
  const from = resolve(source);
  let sha: string;
  try {
    const out = await runGit(
      null,
      ["-C", from, "rev-parse", "--verify", "--quiet", "--end-of-options", `${rev}^{commit}`],
      { okExitCodes: [0, 1] },
    );
    sha = out.stdout.toString("utf8").trim();
    if (out.exitCode !== 0 || !isFullSha(sha)) throw new ForgeError("not_found", `no commit "${rev}" in ${source}`);
  } catch (error) {
    if (error instanceof ForgeError) throw error;
    if (error instanceof GitCommandError)
      throw new ForgeError("not_found", `${source} is not a git repository`, undefined, { cause: error });
    throw gitFailure(`reading ${rev} in ${source}`, error);
  }
  try {
    await runGit(repo.gitDir, ["fetch", "--quiet", "--no-tags", "--no-write-fetch-head", from, sha]);
  } catch (error) {
    throw gitFailure(`fetching ${sha} from ${source} into ${repo.name}`, error);
  }
  return sha;
}
