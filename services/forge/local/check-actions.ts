/**
 * Running the local CI on demand (ForgeService.RunChecks, `yardmaster ci run owner/name REF`):
 * REF is a branch, a commit SHA, or `#n` for a pull request's head. The run replaces the commit's
 * queued and running jobs (and, for a branch, the branch's), as a re-run does. The queue's re-run
 * of a check's failed jobs (ForgePort.rerunChecks) is one too.
 */
import { ForgeError, type RepoName, type Sha } from "../types.js";
import { findBranchSha, resolveCommit } from "./git/index.js";
import { readPull, type ForgeCore } from "./core.js";
import { declaredChecks, requestChecks, type CiSignals } from "./ci-requests.js";
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

/**
 * ForgePort.rerunChecks on the local forge: the commit's CI job runs again (every check of
 * `.yardmaster/ci.yml` at `headSha`, on `branch`), replacing its queued and running jobs, as a
 * re-run does; its check runs are pending again in the same write.
 * @throws ForgeError not_found when none of `checks` is declared at the commit
 */
export async function rerunChecksOf(
  core: ForgeCore,
  signals: CiSignals,
  repo: RepoName,
  input: { headSha: Sha; branch: string; checks: string[] },
): Promise<void> {
  await inRepository(core, repo, { what: `re-running ${input.checks.join(", ")} at ${input.headSha}` }, async (ctx) => {
    const declared = await declaredChecks(ctx.git, input.headSha);
    if (!input.checks.some((c) => declared.includes(c)))
      throw new ForgeError(
        "not_found",
        `.yardmaster/ci.yml at ${input.headSha} declares none of ${input.checks.join(", ")}`,
      );
    await requestChecks(ctx, signals, {
      sha: input.headSha,
      branch: input.branch,
      reason: `re-run of ${input.checks.join(", ")}`,
      rerun: true,
    });
  });
}
