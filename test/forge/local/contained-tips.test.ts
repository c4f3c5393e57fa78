/**
 * Which commits a commit contains, for the pull requests a push merges
 * (services/forge/local/git/contained-tips.ts): the same answer as one `--is-ancestor` per commit,
 * for branch tips and for commits that are no branch's tip.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitsContainedIn, isAncestor } from "../../../services/forge/local/git/index.js";
import { createTestRepo, type TestRepo } from "./git-fixture.js";

let t: TestRepo;
beforeAll(async () => {
  t = await createTestRepo();
});
afterAll(() => t?.cleanup());

describe("commitsContainedIn", () => {
  it("answers like --is-ancestor for each commit, tips of branches or not", async () => {
    const a = await t.commit(t.root, { "a.txt": "a\n" });
    const b = await t.commit(t.root, { "b.txt": "b\n" });
    const inner = await t.commit(a, { "a2.txt": "a2\n" });
    const tip = await t.commit(inner, { "a3.txt": "a3\n" });
    await t.branch("a", a);
    await t.branch("b", b);
    await t.branch("merged-into-main", tip);
    const candidates = [a, b, inner, tip, t.root];
    const contained = await commitsContainedIn(t.repo, candidates, tip);
    for (const c of candidates) expect(contained.has(c)).toBe(await isAncestor(t.repo, c, tip));
    expect([...contained].sort()).toEqual([a, inner, tip, t.root].sort());
    expect(await commitsContainedIn(t.repo, [], tip)).toEqual(new Set());
  });
});
