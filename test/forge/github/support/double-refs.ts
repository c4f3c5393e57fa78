/**
 * Every branch and pull request ref of a double's repository in one git command, for the answers
 * that look at many pull requests at once (lists, a commit's pull requests, webhook events): one
 * `git for-each-ref` instead of a `git rev-parse` per pull request.
 */
import { runGit } from "../../../../services/forge/local/git/index.js";
import type { DoublePull, DoubleRepo } from "./double-state.js";

/** Full ref name (`refs/heads/main`, `refs/pull/3/head`) → commit SHA. */
export type RefMap = Map<string, string>;

/** The repository's branches and pull request refs now; with `contains`, only those that contain that commit. */
export async function readRefs(repo: DoubleRepo, contains?: string): Promise<RefMap> {
  const args = ["for-each-ref", "--format=%(objectname) %(refname)"];
  if (contains) args.push(`--contains=${contains}`);
  const out = await runGit(repo.git.gitDir, [...args, "refs/heads/", "refs/pull/"]);
  const refs: RefMap = new Map();
  for (const line of out.stdout.toString("utf8").split("\n"))
    if (line.length > 41) refs.set(line.slice(41), line.slice(0, 40));
  return refs;
}

/** A pull request's head as DoubleRepo.headSha gives it (its branch, else refs/pull/N/head), from `refs`. */
export function headIn(refs: RefMap, p: DoublePull): string | null {
  return (
    (p.fork ? null : (refs.get(`refs/heads/${p.headRef}`) ?? null)) ?? refs.get(`refs/pull/${p.number}/head`) ?? null
  );
}
