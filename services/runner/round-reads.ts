/**
 * The forge as one round reads it (docs/merge-queue.md "Runner"; docs/github.md "Request budget"):
 * each pull request is read at most once per round, and the default branch once. A round takes its
 * inputs from the inbox first and reads the forge after, so a read made anywhere in the round is at
 * least as new as every event the round applies: reading the same pull request again for the next
 * input (the queue's admission, then the pull request rules, then a check's evaluation) could only
 * give the same answer, at the price of its requests. The forge itself does not change during the
 * round: effects are performed after its commit. A failed read is not kept.
 */
import type { ForgePort, PullRequestSnapshot } from "../forge/index.js";

/** `forge` with its pull request and default branch reads kept for the life of the returned object. */
export function roundReads(forge: ForgePort): ForgePort {
  const pulls = new Map<string, Promise<PullRequestSnapshot>>();
  const defaults = new Map<string, Promise<string>>();
  const keep = <T>(map: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> => {
    let p = map.get(key);
    if (!p) {
      p = read();
      map.set(key, p);
      p.catch(() => map.delete(key));
    }
    return p;
  };
  // The port's other methods stay the forge's own (its prototype's too).
  const reads: ForgePort = Object.create(forge);
  reads.getPullRequest = (repo, number) => keep(pulls, `${repo}#${number}`, () => forge.getPullRequest(repo, number));
  reads.getDefaultBranch = (repo) => keep(defaults, repo, () => forge.getDefaultBranch(repo));
  reads.listOpenPullRequests = async (repo, only) => {
    const list = await forge.listOpenPullRequests(repo, only);
    for (const pr of list) pulls.set(`${repo}#${pr.number}`, Promise.resolve(pr));
    return list;
  };
  return reads;
}
