/**
 * GitHub effects performed again after a crash (docs/reliability.md "Crashes: every effect exactly
 * once"; docs/github.md "Landing a batch"), against the OpenAPI-checked double: a batch merge that
 * stopped part-way resumes from the first pull request the App has not merged, answering the real
 * merge commits of those it had; a merge-batch batch already in the base is found, not merged
 * again; a pull request someone else merged is not taken for the App's; the App's own comment is
 * found by its marker.
 */
import { afterEach, describe, expect, it } from "vitest";
import { armFailpoint, disarmAll } from "../../../services/failpoints/index.js";
import { readCommit, readRef } from "../../../services/forge/local/git/index.js";
import { isForgeError } from "../../../services/forge/types.js";
import { useGithubDouble, type GithubDouble } from "./support/github-double.js";
import { forgeFor, repoWithPull, repoWithPulls } from "./support/scenarios.js";

let double: GithubDouble;
useGithubDouble((d) => (double = d));
afterEach(() => disarmAll());

/** Counts the requests of `operationId` made from now on. */
function counter(operationId: string): () => number {
  const before = double.calls(operationId).length;
  return () => double.calls(operationId).length - before;
}

/** The base's first-parent commits from `tip` back to `base` (excluded), newest first. */
async function firstParents(git: Parameters<typeof readCommit>[0], tip: string, base: string): Promise<string[]> {
  const out: string[] = [];
  for (let sha = tip; sha !== base; sha = (await readCommit(git, sha)).parents[0]) out.push(sha);
  return out;
}

describe("a batch merge performed again", () => {
  it("resumes from the first pull request the App has not merged, with the others' real merge commits", async () => {
    const { repo, pulls } = await repoWithPulls(double, 3);
    const forge = forgeFor(double);
    const base = (await readRef(repo.git, "refs/heads/main"))!;
    const input = { base: "main", expectedBaseSha: base, method: "merge" as const, pulls };
    const merges = counter("pulls/merge");
    armFailpoint("github.merge-batch.between-pulls", "1*throw(the process died)");
    const crashed = await forge.mergePullRequests(repo.fullName, input).catch((e) => e);
    expect(crashed.message).toContain("the process died");
    const firstMerge = repo.pull(pulls[0].number)!.mergeCommitSha!;
    expect(repo.pull(pulls[1].number)!.state).toBe("open");

    const out = await forge.mergePullRequests(repo.fullName, input);
    expect(out.mergeCommits[pulls[0].number]).toBe(firstMerge);
    const chain = [out.newBaseSha, out.mergeCommits[pulls[1].number], firstMerge];
    expect(await firstParents(repo.git, out.newBaseSha, base)).toEqual(chain);
    expect(merges()).toBe(3);
    expect(pulls.map((p) => repo.pull(p.number)!.state)).toEqual(["closed", "closed", "closed"]);
  });

  it("answers a batch the App merged completely with its merge commits, merging nothing", async () => {
    const { repo, pulls } = await repoWithPulls(double, 2);
    const forge = forgeFor(double);
    const base = (await readRef(repo.git, "refs/heads/main"))!;
    const input = { base: "main", expectedBaseSha: base, method: "squash" as const, pulls };
    const merges = counter("pulls/merge");
    const first = await forge.mergePullRequests(repo.fullName, input);
    expect(await forge.mergePullRequests(repo.fullName, input)).toEqual(first);
    expect(merges()).toBe(2);
  });

  it("does not take a pull request someone else merged for the App's: the base moved", async () => {
    const { repo, pulls } = await repoWithPulls(double, 2);
    const base = (await readRef(repo.git, "refs/heads/main"))!;
    const hotfix = await repo.commit("main", { "hotfix.txt": "h\n" }, "Hotfix");
    const byHand = { state: "closed", mergedAt: double.now(), mergedBy: "octocat", mergeCommitSha: hotfix } as const;
    Object.assign(repo.pull(pulls[0].number)!, byHand);
    const merges = counter("pulls/merge");
    const input = { base: "main", expectedBaseSha: base, method: "merge" as const, pulls };
    const err = await forgeFor(double)
      .mergePullRequests(repo.fullName, input)
      .catch((e) => e);
    expect(isForgeError(err, "conflict")).toBe(true);
    expect(merges()).toBe(0);
  });

  it("finds a merge-batch batch already landed through its pull request, instead of merging it again", async () => {
    const { repo, pulls } = await repoWithPulls(double, 2);
    const forge = forgeFor(double);
    const base = (await readRef(repo.git, "refs/heads/main"))!;
    const branch = "yardmaster/merge-queue/batch";
    const checkSha = await forge.createSpeculativeBranch(repo.fullName, branch, base, pulls);
    const draft = await forge.openDraftPullRequest(repo.fullName, { head: branch, base: "main", title: "b", body: "" });
    const input = {
      base: "main",
      expectedBaseSha: base,
      method: "merge-batch" as const,
      pulls,
      checkSha,
      checkPullRequest: draft,
    };
    const merges = counter("pulls/merge");
    const first = await forge.mergePullRequests(repo.fullName, input);
    await repo.commit("main", { "later.txt": "l\n" }, "Later");
    expect(await forge.mergePullRequests(repo.fullName, input)).toEqual(first);
    expect(merges()).toBe(1);
  });
});

describe("the App's own comment", () => {
  it("is found by a text it contains; someone else's comment with that text is not", async () => {
    const { repo, pull } = await repoWithPull(double);
    const forge = forgeFor(double);
    const marker = "<!-- yardmaster:effect 42 -->";
    repo.comments.push({ id: double.id(), number: pull.number, body: `copied ${marker}`, author: "octocat" });
    expect(await forge.findOwnComment(repo.fullName, pull.number, marker)).toBeNull();
    const id = await forge.comment(repo.fullName, pull.number, `Queued\n\n${marker}`);
    expect(await forge.findOwnComment(repo.fullName, pull.number, marker)).toBe(id);
  });
});
