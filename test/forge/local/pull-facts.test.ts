import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isForgeError } from "../../../services/forge/types.js";
import {
  commitsBehind,
  commitsBetween,
  getBranchSha,
  isAncestor,
  mergeBase,
  pullRequestFacts,
  updateHeadWithBase,
  readCommit,
  type MergeConflictError,
} from "../../../services/forge/local/git/index.js";
import { at, type TestRepo } from "./git-fixture.js";
import { testRepoSnapshot } from "./git-repo-snapshot.js";

const lines = (n: number, word: string) => `${Array.from({ length: n }, (_, i) => `${word} ${i + 1}`).join("\n")}\n`;

/**
 * root: keep.txt, old-name.txt (20 lines), gone.txt (2 lines), mod.txt (3 lines).
 * head (2 commits): renames old-name.txt → new-name.txt unchanged; deletes gone.txt; in mod.txt
 *   replaces one line and adds one (+2 −1); adds new.txt (3 lines).
 * main (2 commits): edits keep.txt only (must not count: the diff is three-dot).
 */
let t: TestRepo;
let head1: string;
let head2: string;
const snapshot = testRepoSnapshot(
  { "keep.txt": "keep\n", "old-name.txt": lines(20, "line"), "gone.txt": "g1\ng2\n", "mod.txt": "m1\nm2\nm3\n" },
  async (t) => {
    const head1 = await t.commit(
      t.root,
      { "old-name.txt": null, "new-name.txt": lines(20, "line"), "gone.txt": null },
      "rename and delete",
    );
    const head2 = await t.branch(
      "feature",
      await t.commit(head1, { "mod.txt": "m1\nM2\nm3\nm4\n", "new.txt": lines(3, "new") }, "modify and add\n\nbody"),
    );
    const main1 = await t.commit(t.root, { "keep.txt": "keep 2\n" }, "main 1");
    await t.branch("main", await t.commit(main1, { "keep.txt": "keep 3\n" }, "main 2"));
    return { head1, head2 };
  },
);
beforeAll(snapshot.build);
afterAll(snapshot.dispose);
beforeEach(async () => {
  ({
    t,
    built: { head1, head2 },
  } = await snapshot.restore());
});
afterEach(async () => t.cleanup());

describe("pull request facts", () => {
  it("lists files with renames as both paths, and counts lines from the merge base", async () => {
    const facts = await pullRequestFacts(t.repo, "main", "feature");
    expect(facts).toMatchObject({
      files: ["gone.txt", "mod.txt", "new-name.txt", "new.txt", "old-name.txt"],
      addedFiles: ["new-name.txt", "new.txt"],
      modifiedFiles: ["mod.txt"],
      removedFiles: ["gone.txt", "old-name.txt"],
      addedLines: 5,
      deletedLines: 3,
      commitsBehind: 2,
      conflict: false,
      mergeBase: t.root,
      headSha: head2,
      baseSha: await getBranchSha(t.repo, "main"),
    });
  });

  it("lists the pull request's commits oldest first with their attributes", async () => {
    const commits = await commitsBetween(t.repo, "main", "feature");
    expect(commits.map((c) => [c.sha, c.title, c.author, c.committer, c.parents, c.verified])).toEqual([
      [head1, "rename and delete", "Ada", "Yardmaster", [t.root], false],
      [head2, "modify and add", "Ada", "Yardmaster", [head1], false],
    ]);
    expect(commits[1]!.message).toBe("modify and add\n\nbody");
    expect(commits[1]!.date).toBeInstanceOf(Date);
  });

  it("answers merge base, ancestry and commits behind", async () => {
    expect(await mergeBase(t.repo, "main", "feature")).toBe(t.root);
    expect(await isAncestor(t.repo, t.root, "feature")).toBe(true);
    expect(await isAncestor(t.repo, "main", "feature")).toBe(false);
    expect(await commitsBehind(t.repo, "main", "feature")).toBe(2);
    expect(await commitsBehind(t.repo, "feature", "feature")).toBe(0);
  });

  it("sees a conflict and counts binary files without lines", async () => {
    const binary = await t.commit(
      t.root,
      { "keep.txt": "clash\n", "img.bin": Buffer.from([0, 1, 2, 0, 255]) },
      "binary and clash",
    );
    const facts = await pullRequestFacts(t.repo, "main", binary);
    expect(facts.conflict).toBe(true);
    expect(facts.addedFiles).toEqual(["img.bin"]);
    expect([facts.addedLines, facts.deletedLines]).toEqual([1, 1]);
  });

  it("reports a missing ref as not_found", async () => {
    const error = await pullRequestFacts(t.repo, "main", "no-such-branch").catch((e: unknown) => e);
    expect(isForgeError(error, "not_found")).toBe(true);
  });
});

describe("updating a head with its base", () => {
  it("merge writes a merge commit of the base into the head", async () => {
    const next = await updateHeadWithBase(t.repo, { head: "feature", base: "main", method: "merge", date: at(70) });
    const commit = await readCommit(t.repo, next);
    expect(commit.parents).toEqual([head2, await getBranchSha(t.repo, "main")]);
    expect(commit.title).toBe("Merge branch 'main' into feature");
    expect(await getBranchSha(t.repo, "feature")).toBe(next);
    expect(await commitsBehind(t.repo, "main", "feature")).toBe(0);
  });

  it("rebase replays the head's commits on the base tip", async () => {
    const next = await updateHeadWithBase(t.repo, { head: "feature", base: "main", method: "rebase", date: at(70) });
    const commits = await commitsBetween(t.repo, "main", next);
    expect(commits.map((c) => c.title)).toEqual(["rename and delete", "modify and add"]);
    expect(commits[0]!.parents).toEqual([await getBranchSha(t.repo, "main")]);
    const files = await t.filesAt(next);
    expect(files["keep.txt"]).toBe("keep 3\n");
    expect(Object.keys(files).sort()).toEqual(["keep.txt", "mod.txt", "new-name.txt", "new.txt"]);
  });

  it("leaves an up-to-date head alone", async () => {
    const once = await updateHeadWithBase(t.repo, { head: "feature", base: "main", method: "merge", date: at(70) });
    expect(await updateHeadWithBase(t.repo, { head: "feature", base: "main", method: "rebase", date: at(71) })).toBe(
      once,
    );
  });

  it.each(["merge", "rebase"] as const)("%s reports a conflict naming the file and keeps the head", async (method) => {
    const clash = await t.branch("clash", await t.commit(t.root, { "keep.txt": "mine\n" }, "clash"));
    const error = await updateHeadWithBase(t.repo, {
      head: "clash",
      base: "main",
      method,
      date: at(70),
      pullRequest: 12,
    }).catch((e: unknown) => e);
    expect((error as MergeConflictError).paths).toEqual(["keep.txt"]);
    expect((error as MergeConflictError).pullRequest).toBe(12);
    expect(await getBranchSha(t.repo, "clash")).toBe(clash);
  });

  it("refuses when the head moved", async () => {
    const error = await updateHeadWithBase(t.repo, {
      head: "feature",
      base: "main",
      method: "merge",
      date: at(70),
      expectedHeadSha: head1,
    }).catch((e: unknown) => e);
    expect(isForgeError(error, "conflict")).toBe(true);
    expect(await getBranchSha(t.repo, "feature")).toBe(head2);
  });
});
