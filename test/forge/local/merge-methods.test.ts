import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isForgeError } from "../../../services/forge/types.js";
import {
  createMergeCommit,
  getBranchSha,
  hasConflict,
  isMergeConflict,
  mergePullRequest,
  readCommit,
  treeOf,
  type MergeConflictError,
} from "../../../services/forge/local/git/index.js";
import { at, git, type TestRepo } from "./git-fixture.js";
import { testRepoSnapshot } from "./git-repo-snapshot.js";

/**
 * History used by every test:
 *   root ── M1 (main: a.txt line 1 → ONE)
 *      └── P1a (feature.txt) ── P1b (a.txt line 3 → THREE)      pull request #1
 *      └── C2 (a.txt line 1 → UNO)                                pull request #2, conflicts with main
 */
let t: TestRepo;
let m1: string;
let p1a: string;
let p1b: string;
let c2: string;
const merged = { "README.md": "hello\n", "a.txt": "ONE\n2\nTHREE\n", "feature.txt": "feature\n" };

const snapshot = testRepoSnapshot({ "README.md": "hello\n", "a.txt": "1\n2\n3\n" }, async (t) => {
  const m1 = await t.branch("main", await t.commit(t.root, { "a.txt": "ONE\n2\n3\n" }, "main: one"));
  const p1a = await t.commit(t.root, { "feature.txt": "feature\n" }, "add feature");
  const p1b = await t.branch("feature", await t.commit(p1a, { "a.txt": "1\n2\nTHREE\n" }, "three\n\nwith a body"));
  const c2 = await t.commit(t.root, { "a.txt": "UNO\n2\n3\n" }, "uno");
  return { m1, p1a, p1b, c2 };
});
beforeAll(snapshot.build);
afterAll(snapshot.dispose);
beforeEach(async () => {
  ({
    t,
    built: { m1, p1a, p1b, c2 },
  } = await snapshot.restore());
});
afterEach(async () => t.cleanup());

describe("merge methods", () => {
  it("merge writes one merge commit with parents [base tip, head] and the merged tree", async () => {
    const outcome = await mergePullRequest(t.repo, {
      base: "main",
      pull: { number: 1, headSha: p1b },
      method: "merge",
      date: at(100),
    });
    const tip = await readCommit(t.repo, outcome.tip);
    expect(tip.parents).toEqual([m1, p1b]);
    expect(tip.message).toBe("Merge pull request #1");
    expect(tip.committerIdentity).toMatchObject({
      name: "Yardmaster",
      email: "yardmaster@localhost",
      timestamp: at(100).getTime() / 1000,
    });
    expect(await t.filesAt(outcome.tip)).toEqual(merged);
    expect(await getBranchSha(t.repo, "main")).toBe(outcome.tip);
    expect(outcome.pulls).toEqual([{ number: 1, commits: [outcome.tip], mergeCommitSha: outcome.tip }]);
  });

  it("squash writes one commit on the base tip with the merge's tree, authored by the pull request's author", async () => {
    const viaMerge = await createMergeCommit(t.repo, { into: m1, from: p1b, message: "m", date: at(100) });
    const outcome = await mergePullRequest(t.repo, {
      base: "main",
      pull: { number: 1, headSha: p1b },
      method: "squash",
      date: at(100),
    });
    const tip = await readCommit(t.repo, outcome.tip);
    expect(tip.parents).toEqual([m1]);
    expect(tip.tree).toBe(await treeOf(t.repo, viaMerge));
    expect(tip.authorIdentity).toMatchObject({ name: "Ada", email: "ada@example.com" });
    expect(tip.committer).toBe("Yardmaster");
    expect(tip.message).toBe("Squash of #1\n\n* add feature\n* three");
    expect(await t.filesAt(outcome.tip)).toEqual(merged);
  });

  it("squash takes a given message and author", async () => {
    const outcome = await mergePullRequest(t.repo, {
      base: "main",
      pull: { number: 1, headSha: p1b, message: "Feature (#1)", author: { name: "Bob", email: "bob@example.com" } },
      method: "squash",
      date: at(100),
    });
    const tip = await readCommit(t.repo, outcome.tip);
    expect([tip.title, tip.author]).toEqual(["Feature (#1)", "Bob"]);
  });

  it("rebase replays each commit onto the base tip, keeping messages and authors", async () => {
    const outcome = await mergePullRequest(t.repo, {
      base: "main",
      pull: { number: 1, headSha: p1b },
      method: "rebase",
      date: at(100),
    });
    const [first, second] = await Promise.all(outcome.pulls[0]!.commits.map((sha) => readCommit(t.repo, sha)));
    expect(outcome.pulls[0]!.commits).toHaveLength(2);
    expect(first!.parents).toEqual([m1]);
    expect(second!.parents).toEqual([first!.sha]);
    expect([first!.message, second!.message]).toEqual(["add feature", "three\n\nwith a body"]);
    const original = await readCommit(t.repo, p1a);
    expect(first!.authorIdentity).toEqual(original.authorIdentity);
    expect(first!.committerIdentity).toMatchObject({ name: "Yardmaster", timestamp: at(100).getTime() / 1000 });
    expect(await t.filesAt(first!.sha)).toEqual({
      "README.md": "hello\n",
      "a.txt": "ONE\n2\n3\n",
      "feature.txt": "feature\n",
    });
    expect(await t.filesAt(second!.sha)).toEqual(merged);
    expect(outcome.tip).toBe(second!.sha);
    expect(outcome.pulls[0]!.mergeCommitSha).toBe(second!.sha);
  });

  it("rebase drops a commit whose change is already on the base", async () => {
    const dup = await t.commit(t.root, { "a.txt": "ONE\n2\n3\n" }, "same as main");
    const head = await t.commit(dup, { "z.txt": "z\n" }, "z");
    const outcome = await mergePullRequest(t.repo, {
      base: "main",
      pull: { number: 4, headSha: head },
      method: "rebase",
      date: at(100),
    });
    expect(outcome.pulls[0]!.commits).toHaveLength(1);
    expect((await readCommit(t.repo, outcome.tip)).title).toBe("z");
    expect(await t.filesAt(outcome.tip)).toEqual({ "README.md": "hello\n", "a.txt": "ONE\n2\n3\n", "z.txt": "z\n" });
  });

  it("fast-forward moves the base to the head when the base is its ancestor, and refuses otherwise", async () => {
    const error = await mergePullRequest(t.repo, {
      base: "main",
      pull: { number: 1, headSha: p1b },
      method: "fast-forward",
      date: at(100),
    }).catch((e: unknown) => e);
    expect(isForgeError(error, "conflict")).toBe(true);
    expect((error as Error).message).toMatch(/#1 cannot be fast-forwarded/);
    expect(await getBranchSha(t.repo, "main")).toBe(m1);

    const onTop = await t.commit(m1, { "ff.txt": "ff\n" }, "ff");
    const outcome = await mergePullRequest(t.repo, {
      base: "main",
      pull: { number: 3, headSha: onTop },
      method: "fast-forward",
      date: at(100),
    });
    expect(outcome.tip).toBe(onTop);
    expect(await getBranchSha(t.repo, "main")).toBe(onTop);
    expect(outcome.pulls).toEqual([{ number: 3, commits: [], mergeCommitSha: onTop }]);
  });
});

describe("conflicts", () => {
  it.each(["merge", "squash", "rebase"] as const)(
    "%s names the pull request and the conflicting file, and leaves the base alone",
    async (method) => {
      const error = await mergePullRequest(t.repo, {
        base: "main",
        pull: { number: 2, headSha: c2 },
        method,
        date: at(100),
      }).catch((e: unknown) => e);
      expect(isMergeConflict(error)).toBe(true);
      expect((error as MergeConflictError).kind).toBe("conflict");
      expect((error as MergeConflictError).pullRequest).toBe(2);
      expect((error as MergeConflictError).paths).toEqual(["a.txt"]);
      expect((error as Error).message).toMatch(/#2 .* conflict in a\.txt/);
      expect(String((error as Error).cause)).toMatch(/CONFLICT \(content\)/);
      expect(await getBranchSha(t.repo, "main")).toBe(m1);
    },
  );

  it("names every file of a multi-file conflict, modify/delete included", async () => {
    const base = await t.commit(t.root, { "b.txt": "b\n" }, "b");
    const ours = await t.commit(base, { "a.txt": "X\n2\n3\n", "b.txt": "B\n" }, "ours");
    const theirs = await t.commit(base, { "a.txt": "Y\n2\n3\n", "b.txt": null }, "theirs");
    const error = await createMergeCommit(t.repo, { into: ours, from: theirs, message: "m", date: at(1) }).catch(
      (e: unknown) => e,
    );
    expect((error as MergeConflictError).paths).toEqual(["a.txt", "b.txt"]);
    expect((error as MergeConflictError).pullRequest).toBeNull();
  });

  it("hasConflict tells a clean head from a conflicting one", async () => {
    expect(await hasConflict(t.repo, m1, p1b)).toBe(false);
    expect(await hasConflict(t.repo, m1, c2)).toBe(true);
  });

  it("refuses a merge whose head moved since it was tested", async () => {
    const error = await mergePullRequest(t.repo, {
      base: "main",
      pull: { number: 1, headSha: p1a, headBranch: "feature" },
      method: "merge",
      date: at(100),
    }).catch((e: unknown) => e);
    expect(isForgeError(error, "conflict")).toBe(true);
    expect((error as Error).message).toMatch(/head of pull request #1 moved/);
    expect(await git(t.repo, ["rev-parse", "main"])).toBe(m1);
  });
});
