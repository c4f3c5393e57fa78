/**
 * Named builders of GitHub situations in the test double: a repository with a feature branch and
 * its pull request, several pull requests ready for a speculative branch, conflicting changes.
 */
import { createGithubForge, type GithubForgeDeps } from "../../../../services/forge/github/index.js";
import type { ForgePort } from "../../../../services/forge/types.js";
import type { DoublePull, DoubleRepo } from "./double-state.js";
import type { GithubDouble } from "./github-double.js";

let counter = 0;

/** A unique repository name for one test. */
export function freshRepoName(prefix = "repo"): string {
  return `acme/${prefix}-${++counter}`;
}

/** The adapter pointed at the double: no waits between retries or writes, fixed clock. */
export function forgeFor(double: GithubDouble, extra: Partial<GithubForgeDeps> = {}): ForgePort {
  return createGithubForge({
    appId: double.appId,
    privateKey: double.privateKey,
    fetch: double.fetch,
    secondMs: 0,
    spaceWrites: false,
    now: () => double.clock.getTime(),
    wait: async () => {},
    ...extra,
  });
}

/** A repository whose branch `feature` changes `app.txt`, with an open pull request from it. */
export async function repoWithPull(
  double: GithubDouble,
  opts: { files?: Record<string, string>; pull?: Partial<DoublePull> } = {},
): Promise<{ repo: DoubleRepo; pull: DoublePull; head: string }> {
  const repo = await double.addRepo(freshRepoName(), { files: { "app.txt": "one\ntwo\nthree\n", ...opts.files } });
  const head = await repo.commit("feature", { "app.txt": "one\n2\nthree\n" }, "Change two\n\nLonger explanation.");
  const pull = await repo.openPull({ head: "feature", title: "Change two", ...opts.pull });
  return { repo, pull, head };
}

/** A repository with `n` pull requests, each adding its own file (they merge in any order). */
export async function repoWithPulls(
  double: GithubDouble,
  n: number,
): Promise<{ repo: DoubleRepo; pulls: { number: number; headSha: string }[] }> {
  const repo = await double.addRepo(freshRepoName("queue"));
  const pulls = [];
  for (let i = 1; i <= n; i++) {
    const headSha = await repo.commit(`feature-${i}`, { [`f${i}.txt`]: `file ${i}\n` }, `Add f${i}`);
    const p = await repo.openPull({ head: `feature-${i}`, title: `Add f${i}` });
    pulls.push({ number: p.number, headSha });
  }
  return { repo, pulls };
}
