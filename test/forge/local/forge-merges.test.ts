/**
 * Merging through the local forge (docs/local-forge.md "Merging"): each method gives the expected
 * tree and history and marks the pull requests merged (merge commit, merged by the bot); a batch
 * moves the base once; a moved base, a moved head or a conflict changes nothing.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readCommit } from "../../../services/forge/local/git/index.js";
import type { MergeMethod } from "../../../services/forge/types.js";
import { REPO, type ForgeWorld, type Widgets } from "./forge-fixture.js";
import { filesAt, git } from "./git-fixture.js";
import { worldSnapshot } from "./world-snapshot.js";

let w: ForgeWorld;
let repo: Widgets;
let mainTip: string;
let heads: Readonly<Record<number, string>>;
const base = { "README.md": "hello\n", "shared.txt": "s\n" };

/** main moved one commit past the root; #1 and #2 add files from the root (two commits for #1); #3 edits shared.txt. */
const snapshot = worldSnapshot(base, async (_, repo) => {
  const mainTip = await repo.push("main", repo.src.root, { "main.txt": "m\n" }, "main work");
  const first = await repo.push("one", repo.src.root, { "one.txt": "1\n" }, "one: first");
  const heads: Record<number, string> = {};
  heads[1] = await repo.push("one", first, { "one.txt": "1\n1\n" }, "one: second");
  heads[2] = await repo.push("two", repo.src.root, { "two.txt": "2\n" }, "two");
  heads[3] = await repo.push("three", repo.src.root, { "shared.txt": "from three\n" }, "three");
  for (const b of ["one", "two", "three"]) await repo.open(b, { title: `Pull ${b}` });
  return { mainTip, heads };
});
beforeAll(snapshot.build);
afterAll(snapshot.dispose);
beforeEach(async () => {
  ({
    world: w,
    repo,
    built: { mainTip, heads },
  } = await snapshot.restore());
});
afterEach(async () => w.cleanup());

const batch = (...ns: number[]) => ns.map((number) => ({ number, headSha: heads[number]! }));
const merged = { ...base, "main.txt": "m\n", "one.txt": "1\n1\n", "two.txt": "2\n" };

describe.each(["merge", "squash", "rebase"] as MergeMethod[])("a batch merged by %s", (method) => {
  it("moves the base once to the merged tree and marks every pull request merged", async () => {
    await git(repo.git, ["config", "core.logAllRefUpdates", "always"]);
    const result = await w.forge.mergePullRequests(REPO, {
      base: "main",
      expectedBaseSha: mainTip,
      method,
      pulls: batch(1, 2),
    });
    expect(await w.forge.getBranchSha(REPO, "main")).toBe(result.newBaseSha);
    expect(await filesAt(repo.git, result.newBaseSha)).toEqual(merged);
    // The reflog starts with the next update: one entry means the base moved exactly once.
    expect((await git(repo.git, ["reflog", "show", "--format=%H", "refs/heads/main"])).split("\n")).toEqual([
      result.newBaseSha,
    ]);
    const history = (await git(repo.git, ["log", "--first-parent", "--format=%s", `${mainTip}..${result.newBaseSha}`]))
      .split("\n")
      .reverse();
    expect(history).toEqual(
      method === "merge"
        ? ["Merge pull request #1", "Merge pull request #2"]
        : method === "squash"
          ? ["Squash of #1", "Squash of #2"]
          : ["one: first", "one: second", "two"],
    );
    for (const n of [1, 2]) {
      const s = await w.forge.getPullRequest(REPO, n);
      expect(s).toMatchObject({ state: "merged", mergedBy: "yardmaster[bot]", mergeCommitSha: result.mergeCommits[n] });
    }
    expect(result.mergeCommits[2]).toBe(result.newBaseSha);
  });
});

describe("merging", () => {
  it("fast-forward moves the base to the head and refuses a head that is not ahead of it", async () => {
    await expect(
      w.forge.mergePullRequest(REPO, 2, { method: "fast-forward", expectedHeadSha: heads[2]! }),
    ).rejects.toMatchObject({ kind: "conflict" });
    await w.forge.updatePullRequestWithBase(REPO, 2, "rebase");
    const head = (await w.forge.getPullRequest(REPO, 2)).headSha;
    expect(await w.forge.mergePullRequest(REPO, 2, { method: "fast-forward", expectedHeadSha: head })).toBe(head);
    expect(await w.forge.getPullRequest(REPO, 2)).toMatchObject({ state: "merged", mergeCommitSha: head });
  });

  it("with no method set merges with merge commits (the local forge allows every method; merge is its first)", async () => {
    const result = await w.forge.mergePullRequests(REPO, {
      base: "main",
      expectedBaseSha: mainTip,
      method: null,
      pulls: batch(2),
    });
    expect((await readCommit(repo.git, result.newBaseSha)).title).toBe("Merge pull request #2");
  });

  it("fast-forward with the tested commit moves the base to it, not to each pull request's head", async () => {
    const check = await w.forge.createSpeculativeBranch(REPO, "yardmaster/merge-queue/main/ff", mainTip, batch(1, 2));
    const result = await w.forge.mergePullRequests(REPO, {
      base: "main",
      expectedBaseSha: mainTip,
      method: "fast-forward",
      pulls: batch(1, 2),
      checkSha: check,
    });
    expect(result.newBaseSha).toBe(check);
    expect(await w.forge.getBranchSha(REPO, "main")).toBe(check);
    for (const n of [1, 2]) expect((await w.forge.getPullRequest(REPO, n)).state).toBe("merged");
  });

  it("merge-batch writes one merge commit of the tested check branch", async () => {
    const check = await w.forge.createSpeculativeBranch(REPO, "yardmaster/merge-queue/main/1", mainTip, batch(1, 2));
    const result = await w.forge.mergePullRequests(REPO, {
      base: "main",
      expectedBaseSha: mainTip,
      method: "merge-batch",
      pulls: batch(1, 2),
      checkSha: check,
    });
    const commit = await readCommit(repo.git, result.newBaseSha);
    expect([commit.parents, commit.title]).toEqual([[mainTip, check], "Merge queue batch: #1, #2"]);
    expect(await filesAt(repo.git, result.newBaseSha)).toEqual(merged);
    expect(result.mergeCommits).toEqual({ 1: result.newBaseSha, 2: result.newBaseSha });
    await expect(
      w.forge.mergePullRequests(REPO, {
        base: "main",
        expectedBaseSha: result.newBaseSha,
        method: "merge-batch",
        pulls: batch(3),
      }),
    ).rejects.toMatchObject({ kind: "invalid", message: /checkSha/ });
  });

  it("uses the commit title and message asked for", async () => {
    const tip = await w.forge.mergePullRequest(REPO, 2, {
      method: "squash",
      expectedHeadSha: heads[2]!,
      commitTitle: "Add two (#2)",
      commitMessage: "Details",
    });
    expect((await readCommit(repo.git, tip)).message).toBe("Add two (#2)\n\nDetails");
  });

  const refusals: [string, () => Promise<unknown>, string, RegExp][] = [
    [
      "the base moved",
      () =>
        w.forge.mergePullRequests(REPO, {
          base: "main",
          expectedBaseSha: repo.src.root,
          method: "merge",
          pulls: batch(1),
        }),
      "conflict",
      /main moved/,
    ],
    [
      "a head moved",
      () =>
        w.forge.mergePullRequests(REPO, {
          base: "main",
          expectedBaseSha: mainTip,
          method: "merge",
          pulls: [{ number: 1, headSha: repo.src.root }],
        }),
      "conflict",
      /head of pull request #1 moved/,
    ],
    [
      "a later pull request conflicts",
      () =>
        w.forge.mergePullRequests(REPO, {
          base: "main",
          expectedBaseSha: mainTip,
          method: "merge",
          pulls: [...batch(1), { number: 3, headSha: heads[3]! }, { number: 9, headSha: heads[2]! }],
        }),
      "not_found",
      /#9/,
    ],
    [
      "a pull request is a draft",
      async () => {
        const draft = await w.forge.openDraftPullRequest(REPO, { head: "two", base: "one", title: "d", body: "" });
        return w.forge.mergePullRequests(REPO, {
          base: "one",
          expectedBaseSha: heads[1]!,
          method: "merge",
          pulls: [{ number: draft, headSha: heads[2]! }],
        });
      },
      "invalid",
      /draft/,
    ],
    [
      "the list is empty",
      () => w.forge.mergePullRequests(REPO, { base: "main", expectedBaseSha: mainTip, method: "merge", pulls: [] }),
      "invalid",
      /at least one/,
    ],
  ];

  it.each(refusals)("changes nothing when %s", async (_name, attempt, kind, message) => {
    w.events.take();
    await expect(attempt()).rejects.toMatchObject({ kind, message });
    expect(await w.forge.getBranchSha(REPO, "main")).toBe(mainTip);
    for (const n of [1, 2, 3]) expect((await w.forge.getPullRequest(REPO, n)).state).toBe("open");
    expect(w.events.take().filter((e) => e.kind !== "pull_request_opened" && e.kind !== "checks_changed")).toEqual([]);
  });

  it("a conflicting pull request in a batch fails the whole batch, naming it", async () => {
    await repo.push("main", mainTip, { "shared.txt": "from main\n" });
    const tip = await w.forge.getBranchSha(REPO, "main");
    await expect(
      w.forge.mergePullRequests(REPO, {
        base: "main",
        expectedBaseSha: tip,
        method: "merge",
        pulls: [...batch(1), { number: 3, headSha: heads[3]! }],
      }),
    ).rejects.toMatchObject({ kind: "conflict", pullRequest: 3 });
    expect(await w.forge.getBranchSha(REPO, "main")).toBe(tip);
    expect((await w.forge.getPullRequest(REPO, 1)).state).toBe("open");
  });
});
