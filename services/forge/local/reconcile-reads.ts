/**
 * Reconciliation's read on the local forge (services/forge/reconciliation-port.ts; docs/github.md
 * "Reconciliation"). The local forge's events are written in the transaction of its own writes and
 * never lost, but the port is the same for both forges: the pull requests updated since an
 * instant, built from their snapshots (the local forge has no cheaper read), the branches' tips
 * and the commits' checks.
 */
import type { CheckRun, PullRequestHead, ReconciliationFacts, RepoName, Sha } from "../types.js";
import { localForgeStore as store } from "../../store/index.js";
import { findBranchSha } from "./git/index.js";
import { asForgeError, gitOf, readRepository, type ForgeCore } from "./core.js";
import { buildSnapshot } from "./snapshot.js";

/**
 * What reconciliation asks of `repo` (ReconciliationPort.reconciliationFacts): the pull requests
 * updated at or after `ask.since`, newest first; the tips of `ask.branches` (null: absent); the
 * checks of `ask.commits` as `commitChecks` gives them.
 * @throws ForgeError not_found for an unknown repository, transient when the store fails
 */
export async function reconciliationFacts(
  core: ForgeCore,
  repo: RepoName,
  ask: { since: Date; branches: readonly string[]; commits: readonly Sha[] },
  commitChecks: (sha: Sha) => Promise<CheckRun[]>,
): Promise<ReconciliationFacts> {
  const row = await readRepository(core, repo);
  const all = await asForgeError(`listing pull requests of ${repo}`, () =>
    store.listPullRequests(core.db, row.id, { order: "desc" }),
  );
  const updated = all
    .filter((p) => p.updatedAt.getTime() >= ask.since.getTime())
    .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
  const pulls: PullRequestHead[] = [];
  for (const p of updated) {
    const s = await buildSnapshot(core, row, p);
    pulls.push({
      number: p.number,
      state: p.state,
      base: p.baseBranch,
      headSha: p.headSha,
      updatedAt: p.updatedAt,
      mergeCommitSha: p.mergeCommitSha,
      title: s.title,
      body: s.body,
      draft: s.draft,
      locked: s.locked,
      labels: s.labels.map((l) => l.name),
      assignees: s.assignees,
      requestedReviewers: s.requestedReviewers,
      requestedTeams: s.requestedTeams,
      milestone: s.milestone,
    });
  }
  const tips: Record<string, Sha | null> = {};
  for (const branch of ask.branches) tips[branch] = await findBranchSha(gitOf(row), branch);
  const checks: Record<Sha, CheckRun[]> = {};
  for (const sha of ask.commits) checks[sha] = await commitChecks(sha);
  return { pulls, tips, checks };
}
