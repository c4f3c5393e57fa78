/**
 * Running the local CI on demand (ForgeService.RunChecks, `yardmaster ci run owner/name REF`):
 * REF is a branch, a commit SHA, or `#n` for a pull request's head. The run replaces the commit's
 * queued and running jobs (and, for a branch, the branch's), as a re-run does.
 */
import type { RepoName, Sha } from "../types.js";
import { findBranchSha, resolveCommit } from "./git/index.js";
import { readPull, type ForgeCore } from "./core.js";
import { requestChecks, type CiSignals } from "./ci-requests.js";
import { LocalForgeError, withField } from "./errors.js";
import { inRepository } from "./write-context.js";

/**
 * Queues a CI run of the commit `ref` names.
 * @returns the commit and the checks it declares (empty: no `.yardmaster/ci.yml` there, nothing queued)
 * @throws LocalForgeError not_found / invalid (field ref) when `ref` names nothing; ForgeError
 *   not_found for an unknown repository
 */
export async function runChecksAt(
  core: ForgeCore,
  signals: CiSignals,
  repo: RepoName,
  ref: string,
): Promise<{ sha: Sha; checks: string[] }> {
  return inRepository(core, repo, { what: `running the checks of ${ref}` }, async (ctx) => {
    let sha: Sha;
    let branch: string | null = null;
    const pullRef = /^#(\d+)$/.exec(ref.trim());
    if (pullRef !== null) {
      const pull = await withField("ref", () => readPull(ctx.client, ctx.repo, Number(pullRef[1])));
      sha = pull.headSha;
      branch = pull.state === "open" ? pull.headBranch : null;
    } else {
      const tip = await findBranchSha(ctx.git, ref).catch(() => null);
      if (tip !== null) {
        sha = tip;
        branch = ref;
      } else {
        sha = await withField("ref", () => resolveCommit(ctx.git, ref));
      }
    }
    if (!/^[0-9a-f]{40}$/.test(sha))
      throw new LocalForgeError("invalid", `"${ref}" does not name a commit`, { field: "ref" });
    const { checks } = await requestChecks(ctx, signals, { sha, branch, reason: `ci run ${ref}`, rerun: true });
    return { sha, checks };
  });
}
