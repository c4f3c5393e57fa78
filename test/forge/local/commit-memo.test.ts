/**
 * What the local forge remembers about commits (services/forge/local/git/commit-memo.ts and the
 * known-commit memo of refs.ts) must never make an answer stale: a SHA that was absent resolves once
 * its commit arrives, a branch name is resolved again on every call, and a caller changing the
 * facts it got cannot change what the next caller gets.
 */
import { afterEach, describe, expect, it } from "vitest";
import { commitFiles, findCommit, pullRequestFacts, setBranch } from "../../../services/forge/local/git/index.js";
import { at, createTestRepo, type TestRepo } from "./git-fixture.js";

const repos: TestRepo[] = [];
async function repo(): Promise<TestRepo> {
  const t = await createTestRepo({ "README.md": "hello\n" });
  repos.push(t);
  return t;
}
afterEach(async () => {
  await Promise.all(repos.splice(0).map((t) => t.cleanup()));
});

describe("remembered git answers", () => {
  it("resolves a SHA that was absent once its commit has arrived", async () => {
    const [a, b] = [await repo(), await repo()];
    expect(b.root).toBe(a.root);
    const change = { parent: a.root, changes: { "f.txt": "1\n" }, message: "same commit", date: at(5) };
    const sha = await commitFiles(a.repo, change);
    expect(await findCommit(b.repo, sha)).toBeNull();
    expect(await commitFiles(b.repo, change)).toBe(sha);
    expect(await findCommit(b.repo, sha)).toBe(sha);
  });

  it("computes the facts against where the base branch is now, not where it was", async () => {
    const t = await repo();
    await t.branch("feature", await t.commit(t.root, { "f.txt": "1\n" }));
    expect((await pullRequestFacts(t.repo, "main", "feature")).commitsBehind).toBe(0);
    const moved = await t.commit(t.root, { "g.txt": "1\n" });
    await setBranch(t.repo, "main", moved);
    const facts = await pullRequestFacts(t.repo, "main", "feature");
    expect(facts.commitsBehind).toBe(1);
    expect(facts.baseSha).toBe(moved);
  });

  it("gives each caller its own copy of the facts of two SHAs", async () => {
    const t = await repo();
    const head = await t.commit(t.root, { "f.txt": "1\n" });
    const first = await pullRequestFacts(t.repo, t.root, head);
    first.files.push("changed-by-a-caller.txt");
    first.commits.length = 0;
    const second = await pullRequestFacts(t.repo, t.root, head);
    expect(second.files).toEqual(["f.txt"]);
    expect(second.commits.map((c) => c.sha)).toEqual([head]);
  });
});
