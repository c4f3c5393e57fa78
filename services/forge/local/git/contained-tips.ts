/**
 * Which of many commits a commit contains, in one pass (docs/local-forge.md "What follows a ref
 * move": a push to a base merges the open pull requests whose head it now contains). The heads of
 * open pull requests are branch tips, so `git for-each-ref --merged=<commit>` answers for all of
 * them with one walk of the history instead of one `git merge-base --is-ancestor` each (100 open
 * pull requests cost 100 git commands per push to their base). A commit that is no branch's tip
 * is asked on its own.
 */
import { withGitFailure } from "./errors.js";
import { gitText } from "./git-command.js";
import { isAncestor } from "./ancestry.js";
import { resolveCommit } from "./refs.js";
import type { BareRepo } from "./bare-repo.js";

/**
 * The commits of `commits` (full SHAs) that `descendant` is or contains.
 * @throws ForgeError not_found when `descendant` is not a commit
 */
export async function commitsContainedIn(
  repo: BareRepo,
  commits: readonly string[],
  descendant: string,
): Promise<Set<string>> {
  if (commits.length === 0) return new Set();
  const tip = await resolveCommit(repo, descendant);
  const lines = (args: string[]) =>
    withGitFailure(`finding the branches ${tip} contains`, () => gitText(repo.gitDir, args)).then(
      (out) => new Set(out.split("\n").filter((l) => l !== "")),
    );
  const [merged, tips] = await Promise.all([
    lines(["for-each-ref", `--merged=${tip}`, "--format=%(objectname)", "refs/heads/"]),
    lines(["for-each-ref", "--format=%(objectname)", "refs/heads/"]),
  ]);
  const contained = new Set<string>();
  for (const c of commits) {
    if (merged.has(c) || (!tips.has(c) && (await isAncestor(repo, c, tip)))) contained.add(c);
  }
  return contained;
}
