import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isForgeError } from "../../../services/forge/types.js";
import {
  createSpeculativeBranch,
  fastForwardBranch,
  findBranchSha,
  getBranchSha,
  mergePullRequests,
  readCommit,
  treeOf,
  type MergeConflictError,
} from "../../../services/forge/local/git/index.js";
import { at, git, type TestRepo } from "./git-fixture.js";
import { testRepoSnapshot } from "./git-repo-snapshot.js";

/** main = root + one commit; pull requests #1, #2, #3 each add their own file from root; #9 conflicts with #1. */
let t: TestRepo;
let base: string;
let heads: Readonly<Record<number, string>>;

const snapshot = testRepoSnapshot({ "README.md": "hello\n", "shared.txt": "s\n" }, async (t) => {
  await git(t.repo, ["config", "core.logAllRefUpdates", "always"]);
  const base = await t.branch("main", await t.commit(t.root, { "base.txt": "base\n" }, "base work"));
  const heads: Record<number, string> = {};
  for (const n of [1, 2, 3]) heads[n] = await t.commit(t.root, { [`pr${n}.txt`]: `pr ${n}\n` }, `pull request ${n}`);
  heads[1] = await t.commit(heads[1]!, { "shared.txt": "from #1\n" }, "pr 1 edits shared");
  heads[9] = await t.commit(t.root, { "shared.txt": "from #9\n" }, "pr 9 edits shared");
  return { base, heads };
});
beforeAll(snapshot.build);
afterAll(snapshot.dispose);
beforeEach(async () => {
  ({
    t,
    built: { base, heads },
  } = await snapshot.restore());
});
afterEach(async () => t.cleanup());

const pulls = (...numbers: number[]) => numbers.map((number) => ({ number, headSha: heads[number]! }));
const baseFiles = { "README.md": "hello\n", "shared.txt": "s\n", "base.txt": "base\n" };

describe("speculative branches", () => {
  it("hold exactly the base plus the pull requests ahead plus their own", async () => {
    const car1 = await createSpeculativeBranch(t.repo, "yardmaster/merge-queue/main/1", base, pulls(1), at(50));
    const car2 = await createSpeculativeBranch(t.repo, "yardmaster/merge-queue/main/2", base, pulls(1, 2), at(50));
    expect(await t.filesAt(car1)).toEqual({ ...baseFiles, "shared.txt": "from #1\n", "pr1.txt": "pr 1\n" });
    expect(await t.filesAt(car2)).toEqual({
      ...baseFiles,
      "shared.txt": "from #1\n",
      "pr1.txt": "pr 1\n",
      "pr2.txt": "pr 2\n",
    });
    expect(await getBranchSha(t.repo, "yardmaster/merge-queue/main/2")).toBe(car2);
  });

  it("is a chain of `Merge of #n` commits: first parent the chain so far, second the head", async () => {
    const tip = await createSpeculativeBranch(t.repo, "spec", base, pulls(1, 2), at(50));
    const top = await readCommit(t.repo, tip);
    const below = await readCommit(t.repo, top.parents[0]!);
    expect([top.title, top.parents[1]]).toEqual(["Merge of #2", heads[2]]);
    expect([below.title, below.parents]).toEqual(["Merge of #1", [base, heads[1]]]);
  });

  it("with no pull requests points at the base itself, and is force-moved when rebuilt", async () => {
    expect(await createSpeculativeBranch(t.repo, "spec", base, [], at(50))).toBe(base);
    const rebuilt = await createSpeculativeBranch(t.repo, "spec", base, pulls(3), at(50));
    expect(await getBranchSha(t.repo, "spec")).toBe(rebuilt);
  });

  it("names the pull request that does not merge and moves no branch", async () => {
    const error = await createSpeculativeBranch(t.repo, "spec", base, pulls(1, 2, 9), at(50)).catch((e: unknown) => e);
    expect(isForgeError(error, "conflict")).toBe(true);
    expect((error as MergeConflictError).pullRequest).toBe(9);
    expect((error as MergeConflictError).paths).toEqual(["shared.txt"]);
    expect((error as Error).message).toMatch(/pull request #9 .*conflict in shared\.txt/);
    expect(await findBranchSha(t.repo, "spec")).toBeNull();
  });

  it("refuses a bad branch name and a pull request listed twice", async () => {
    await expect(createSpeculativeBranch(t.repo, "bad..name", base, pulls(1), at(50))).rejects.toMatchObject({
      kind: "invalid",
    });
    await expect(createSpeculativeBranch(t.repo, "spec", base, pulls(1, 1), at(50))).rejects.toMatchObject({
      kind: "invalid",
      message: /#1 appears twice/,
    });
  });
});

describe("batch merge", () => {
  const reflogLength = async () =>
    (await git(t.repo, ["reflog", "show", "--format=%H", "refs/heads/main"])).split("\n").length;

  it.each(["merge", "squash", "rebase"] as const)(
    "%s moves the base once, to the speculative branch's tree",
    async (method) => {
      const spec = await createSpeculativeBranch(t.repo, "spec", base, pulls(1, 2, 3), at(50));
      const movesBefore = await reflogLength();
      const outcome = await mergePullRequests(t.repo, {
        base: "main",
        expectedBaseSha: base,
        method,
        pulls: pulls(1, 2, 3),
        date: at(60),
      });
      expect(await reflogLength()).toBe(movesBefore + 1);
      expect(await getBranchSha(t.repo, "main")).toBe(outcome.tip);
      expect(outcome.previousSha).toBe(base);
      expect(await treeOf(t.repo, outcome.tip)).toBe(await treeOf(t.repo, spec));
      expect(outcome.pulls.map((p) => p.number)).toEqual([1, 2, 3]);
      expect(outcome.pulls.map((p) => p.commits.length)).toEqual(method === "rebase" ? [2, 1, 1] : [1, 1, 1]);
      // Each pull request's last commit descends from the previous one's: one linear first-parent chain.
      const firstParents = (await git(t.repo, ["rev-list", "--first-parent", `${base}..${outcome.tip}`])).split("\n");
      expect(firstParents).toHaveLength(method === "rebase" ? 4 : 3);
      expect(firstParents[0]).toBe(outcome.pulls[2]!.mergeCommitSha);
    },
  );

  it("fast-forward moves the base along a stack of pull requests", async () => {
    const first = await t.commit(base, { "one.txt": "1\n" }, "one");
    const second = await t.commit(first, { "two.txt": "2\n" }, "two");
    const outcome = await mergePullRequests(t.repo, {
      base: "main",
      expectedBaseSha: base,
      method: "fast-forward",
      pulls: [
        { number: 5, headSha: first },
        { number: 6, headSha: second },
      ],
      date: at(60),
    });
    expect(outcome.tip).toBe(second);
    expect(outcome.pulls.map((p) => p.mergeCommitSha)).toEqual([first, second]);
  });

  it("refuses when the base moved since the batch was tested, changing nothing", async () => {
    const pushed = await t.branch("main", await t.commit(base, { "late.txt": "late\n" }, "pushed meanwhile"));
    const error = await mergePullRequests(t.repo, {
      base: "main",
      expectedBaseSha: base,
      method: "merge",
      pulls: pulls(1, 2),
      date: at(60),
    }).catch((e: unknown) => e);
    expect(isForgeError(error, "conflict")).toBe(true);
    expect((error as Error).message).toMatch(/main moved/);
    expect(await getBranchSha(t.repo, "main")).toBe(pushed);
  });

  it("does not half-apply a batch whose third pull request conflicts", async () => {
    const error = await mergePullRequests(t.repo, {
      base: "main",
      expectedBaseSha: base,
      method: "squash",
      pulls: pulls(2, 1, 9),
      date: at(60),
    }).catch((e: unknown) => e);
    expect((error as MergeConflictError).pullRequest).toBe(9);
    expect(await getBranchSha(t.repo, "main")).toBe(base);
  });

  it("refuses an empty batch and a repeated pull request", async () => {
    await expect(
      mergePullRequests(t.repo, { base: "main", expectedBaseSha: base, method: "merge", pulls: [], date: at(60) }),
    ).rejects.toMatchObject({ kind: "invalid" });
    await expect(
      mergePullRequests(t.repo, {
        base: "main",
        expectedBaseSha: base,
        method: "merge",
        pulls: pulls(2, 2),
        date: at(60),
      }),
    ).rejects.toMatchObject({ kind: "invalid" });
  });

  it("fast-forwards the base to a tested speculative branch, and only along its history", async () => {
    const spec = await createSpeculativeBranch(t.repo, "spec", base, pulls(1, 2), at(50));
    const sideways = await t.commit(t.root, { "side.txt": "side\n" }, "side");
    await expect(fastForwardBranch(t.repo, "main", sideways)).rejects.toMatchObject({
      kind: "conflict",
      message: /not an ancestor/,
    });
    await expect(fastForwardBranch(t.repo, "main", spec, heads[1])).rejects.toMatchObject({
      kind: "conflict",
      message: /main moved/,
    });
    expect(await fastForwardBranch(t.repo, "main", spec, base)).toBe(base);
    expect(await getBranchSha(t.repo, "main")).toBe(spec);
  });
});
