/**
 * Landing a tested batch on GitHub (docs/github.md "Landing a batch") against the double, whose
 * repositories refuse what GitHub refuses (double-rules.ts): the transient "Base branch was
 * modified" retried, the merge method resolved from the repository's settings, each refusal named
 * with its pull request and GitHub's message, a landing GitHub would refuse stopped before any
 * write, the App's own required check concluded, strict checks met through the batch's pull
 * request (fast-forward: landing-push.test.ts).
 */
import { describe, expect, it } from "vitest";
import { readCommit, readRef } from "../../../services/forge/local/git/index.js";
import { isForgeError, MergeRefusedError } from "../../../services/forge/types.js";
import { settingsOf } from "./support/double-rules.js";
import { useGithubDouble, type GithubDouble } from "./support/github-double.js";
import { forgeFor, repoWithPulls } from "./support/scenarios.js";

let double: GithubDouble;
useGithubDouble((d) => (double = d));

const DOCS = "https://docs.github.com/rest";
const baseModified = { message: "Base branch was modified. Review and try the merge again.", documentation_url: DOCS };

/** A forge whose waits and warnings are recorded. */
function watchedForge(extra: Parameters<typeof forgeFor>[1] = {}) {
  const waits: number[] = [];
  const warnings: string[] = [];
  const log = { debug() {}, info() {}, error() {}, warn: (_o: object, msg?: string) => void warnings.push(msg ?? "") };
  const forge = forgeFor(double, { wait: async (ms) => void waits.push(ms), log, ...extra });
  return { forge, waits, warnings };
}

/** A repository with `n` pull requests and the base's tip. */
async function batch(n: number) {
  const { repo, pulls } = await repoWithPulls(double, n);
  return { repo, pulls, base: (await readRef(repo.git, "refs/heads/main"))! };
}

const merges = (repo: { fullName: string }) =>
  double.calls("pulls/merge").filter((r) => r.path.startsWith(`/repos/${repo.fullName}/`));

describe("the transient 'Base branch was modified'", () => {
  it("is retried, waiting 1 s then 2 s, each retry logged, and merges", async () => {
    const { repo, pulls, base } = await batch(1);
    double.inject({ operationId: "pulls/merge", status: 405, body: baseModified, times: 2 });
    const { forge, waits, warnings } = watchedForge();
    const out = await forge.mergePullRequests(repo.fullName, {
      base: "main",
      expectedBaseSha: base,
      method: "merge",
      pulls,
    });
    expect(out.newBaseSha).toBe(await readRef(repo.git, "refs/heads/main"));
    expect(waits).toEqual([1000, 2000]);
    expect(warnings).toEqual(Array(2).fill("GitHub answered that the base branch was modified: merging again"));
  });

  it("after 5 attempts is a transient error (the effect is retried later), nothing merged", async () => {
    const { repo, pulls, base } = await batch(1);
    double.inject({ operationId: "pulls/merge", status: 405, body: baseModified, times: 5 });
    const err = await watchedForge()
      .forge.mergePullRequests(repo.fullName, { base: "main", expectedBaseSha: base, method: "merge", pulls })
      .catch((e) => e);
    expect(isForgeError(err, "transient")).toBe(true);
    expect(repo.pull(pulls[0]!.number)!.state).toBe("open");
  });
});

describe("the merge method", () => {
  it("unset is the first the repository allows: squash on a squash-only repository", async () => {
    const { repo, pulls, base } = await batch(2);
    Object.assign(settingsOf(repo), { allowMergeCommit: false, allowRebaseMerge: false });
    await forgeFor(double).mergePullRequests(repo.fullName, {
      base: "main",
      expectedBaseSha: base,
      method: null,
      pulls,
    });
    expect(merges(repo).map((r) => (r.body as { merge_method: string }).merge_method)).toEqual(["squash", "squash"]);
    expect(pulls.map((p) => repo.pull(p.number)!.mergedAt !== null)).toEqual([true, true]);
  });

  it("unset skips merge commits where the branch requires a linear history", async () => {
    const { repo, pulls, base } = await batch(1);
    repo.protection.set("main", { contexts: [], checks: [], approvals: null, conversation: false });
    settingsOf(repo).classic.set("main", { linear: true });
    await forgeFor(double).mergePullRequests(repo.fullName, {
      base: "main",
      expectedBaseSha: base,
      method: null,
      pulls,
    });
    expect(merges(repo).map((r) => (r.body as { merge_method: string }).merge_method)).toEqual(["squash"]);
  });

  it("set to one the repository refuses is refused before any write, naming the setting", async () => {
    const { repo, pulls, base } = await batch(2);
    settingsOf(repo).allowMergeCommit = false;
    const err = await forgeFor(double)
      .mergePullRequests(repo.fullName, { base: "main", expectedBaseSha: base, method: "merge", pulls })
      .catch((e) => e);
    expect(err).toBeInstanceOf(MergeRefusedError);
    expect(err).toMatchObject({ refusal: "protection", pullRequest: null, kind: "permission" });
    expect(err.message).toContain('"Allow merge commits"');
    expect(merges(repo)).toEqual([]);
  });
});

describe("a refusal", () => {
  it("of a head pushed after its check names that pull request (head_moved), not the batch's first", async () => {
    const { repo, pulls, base } = await batch(2);
    await repo.commit("feature-2", { "late.txt": "late\n" }, "Pushed after the check");
    const err = await forgeFor(double)
      .mergePullRequests(repo.fullName, { base: "main", expectedBaseSha: base, method: "merge", pulls })
      .catch((e) => e);
    expect(err).toMatchObject({ refusal: "head_moved", pullRequest: pulls[1]!.number });
    expect(err.message).toContain("Head branch was modified");
    expect(err.message).toContain(`already merged before it: #${pulls[0]!.number}`);
  });

  it("by branch protection keeps GitHub's message and names the pull request", async () => {
    const { repo, pulls, base } = await batch(1);
    repo.protection.set("main", { contexts: [], checks: [], approvals: 1, conversation: false });
    const err = await forgeFor(double)
      .mergePullRequests(repo.fullName, { base: "main", expectedBaseSha: base, method: "merge", pulls })
      .catch((e) => e);
    expect(err).toMatchObject({ refusal: "protection", pullRequest: pulls[0]!.number });
    expect(err.message).toContain("At least 1 approving review is required by reviewers with write access.");
    settingsOf(repo).refusals.length = 0;
  });
});

describe("the App's own required check", () => {
  it("in progress on the head is concluded just before the merge, so that it never blocks it", async () => {
    const { repo, pulls, base } = await batch(1);
    repo.protection.set("main", { contexts: ["Yardmaster"], checks: [], approvals: null, conversation: false });
    const forge = forgeFor(double, { ownCheckNames: ["Yardmaster"] });
    const head = pulls[0]!.headSha;
    await forge.upsertCheckRun(repo.fullName, {
      name: "Yardmaster",
      headSha: head,
      status: "in_progress",
      conclusion: null,
      title: "Queued",
      summary: "",
    });
    await forge.mergePullRequests(repo.fullName, { base: "main", expectedBaseSha: base, method: "merge", pulls });
    expect(repo.pull(pulls[0]!.number)!.mergedAt).not.toBeNull();
    expect(repo.checkRuns.filter((r) => r.name === "Yardmaster").map((r) => [r.status, r.conclusion])).toEqual([
      ["completed", "success"],
    ]);
  });
});

describe("strict required checks without a bypass", () => {
  it("land the batch through its draft pull request (the tested commit), closing the squashed pull requests", async () => {
    const { repo, pulls, base } = await batch(2);
    Object.assign(settingsOf(repo), { allowMergeCommit: false, allowRebaseMerge: false });
    repo.protection.set("main", { contexts: [], checks: [], approvals: 0, conversation: false });
    settingsOf(repo).classic.set("main", { strict: true });
    const forge = forgeFor(double);
    const branch = "yardmaster/merge-queue/main/batch-1";
    const checkSha = await forge.createSpeculativeBranch(repo.fullName, branch, base, pulls, { base: "main" });
    const draft = await forge.openDraftPullRequest(repo.fullName, { head: branch, base: "main", title: "b", body: "" });
    const input = { base: "main", expectedBaseSha: base, method: null, pulls, checkSha, checkPullRequest: draft };
    const out = await forge.mergePullRequests(repo.fullName, input);
    const landed = await readCommit(repo.git, out.newBaseSha);
    expect({ parents: landed.parents, tree: landed.tree }).toEqual({
      parents: [base],
      tree: (await readCommit(repo.git, checkSha)).tree,
    });
    expect(merges(repo).map((r) => r.path)).toEqual([`/repos/${repo.fullName}/pulls/${draft}/merge`]);
    for (const p of pulls) {
      expect(repo.pull(p.number)!.state).toBe("closed");
      expect(repo.comments.find((c) => c.number === p.number)!.body).toContain(`landed through #${draft}`);
    }
    // Performed again (a replay after a crash): the landing is found, nothing merged twice.
    expect(await forge.mergePullRequests(repo.fullName, input)).toEqual(out);
    expect(merges(repo)).toHaveLength(1);
  });

  it("check again a batch whose check is behind the base's tip (stale_check)", async () => {
    const { repo, pulls, base } = await batch(2);
    repo.protection.set("main", { contexts: [], checks: [], approvals: 0, conversation: false });
    settingsOf(repo).classic.set("main", { strict: true });
    const forge = forgeFor(double);
    const branch = "yardmaster/merge-queue/main/batch-2";
    const checkSha = await forge.createSpeculativeBranch(repo.fullName, branch, base, pulls.slice(1));
    const draft = await forge.openDraftPullRequest(repo.fullName, { head: branch, base: "main", title: "b", body: "" });
    // The batch ahead lands first: main moves past the base the check was built on.
    const tip = await forge.mergePullRequest(repo.fullName, pulls[0]!.number, {
      method: "merge",
      expectedHeadSha: pulls[0]!.headSha,
    });
    const input = {
      base: "main",
      expectedBaseSha: tip,
      method: "merge" as const,
      pulls: pulls.slice(1),
      checkSha,
      checkPullRequest: draft,
    };
    const err = await forge.mergePullRequests(repo.fullName, input).catch((e) => e);
    expect(err).toMatchObject({ refusal: "stale_check", pullRequest: null });
    expect(repo.pull(draft)!.state).toBe("open");
  });
});
