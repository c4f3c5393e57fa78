/**
 * The local forge's writes through ForgePort (docs/local-forge.md): speculative branches and
 * draft pull requests as real branches and rows, edits, closing, updating a head with its base,
 * deleting and fast-forwarding branches, Yardmaster's own check runs, comments and labels.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isForgeError } from "../../../services/forge/types.js";
import { findBranchSha, readCommit, type MergeConflictError } from "../../../services/forge/local/git/index.js";
import { REPO, type ForgeWorld, type Widgets } from "./forge-fixture.js";
import { worldSnapshot } from "./world-snapshot.js";
import { filesAt } from "./git-fixture.js";

let w: ForgeWorld;
let repo: Widgets;
const base = { "README.md": "hello\n", "shared.txt": "s\n" };

const snapshot = worldSnapshot(base, async () => undefined);
beforeAll(snapshot.build);
afterAll(snapshot.dispose);
beforeEach(async () => {
  ({ world: w, repo } = await snapshot.restore());
});
afterEach(async () => w.cleanup());

/** Pull requests #1..#3 each add their own file; #4 edits shared.txt like #1 does, differently. */
async function threePullsAndAClash(): Promise<Record<number, string>> {
  const heads: Record<number, string> = {};
  heads[1] = await repo.push("one", repo.src.root, { "one.txt": "1\n", "shared.txt": "from one\n" });
  heads[2] = await repo.push("two", repo.src.root, { "two.txt": "2\n" });
  heads[3] = await repo.push("three", repo.src.root, { "three.txt": "3\n" });
  heads[4] = await repo.push("clash", repo.src.root, { "shared.txt": "from clash\n" });
  for (const b of ["one", "two", "three", "clash"]) await repo.open(b);
  return heads;
}

describe("speculative branches and draft pull requests", () => {
  it("a draft check branch holds exactly the base, the pull requests ahead and its own", async () => {
    const heads = await threePullsAndAClash();
    const pulls = (...ns: number[]) => ns.map((number) => ({ number, headSha: heads[number]! }));
    const car1 = await w.forge.createSpeculativeBranch(REPO, "yardmaster/merge-queue/main/1", repo.src.root, pulls(1));
    const car3 = await w.forge.createSpeculativeBranch(
      REPO,
      "yardmaster/merge-queue/main/3",
      repo.src.root,
      pulls(1, 2, 3),
    );
    expect(await filesAt(repo.git, car1)).toEqual({ ...base, "shared.txt": "from one\n", "one.txt": "1\n" });
    expect(await filesAt(repo.git, car3)).toEqual({
      ...base,
      "shared.txt": "from one\n",
      "one.txt": "1\n",
      "two.txt": "2\n",
      "three.txt": "3\n",
    });
    const top = await readCommit(repo.git, car3);
    expect([top.title, top.parents[1]]).toEqual(["Merge of #3", heads[3]]);

    const draft = await w.forge.openDraftPullRequest(REPO, {
      head: "yardmaster/merge-queue/main/3",
      base: "main",
      title: "Merge queue: #1, #2, #3",
      body: "batch",
    });
    const s = await w.forge.getPullRequest(REPO, draft);
    expect(s).toMatchObject({
      draft: true,
      author: { login: "yardmaster[bot]" },
      headSha: car3,
      state: "open",
      body: "batch",
    });
    expect([...s.files].sort()).toEqual(["one.txt", "shared.txt", "three.txt", "two.txt"]);
    expect(await findBranchSha(repo.git, "yardmaster/merge-queue/main/3")).toBe(car3);
  });

  it("moving a speculative branch moves its draft pull request's head", async () => {
    const heads = await threePullsAndAClash();
    const branch = "yardmaster/merge-queue/main/1";
    await w.forge.createSpeculativeBranch(REPO, branch, repo.src.root, [{ number: 1, headSha: heads[1]! }]);
    const draft = await w.forge.openDraftPullRequest(REPO, { head: branch, base: "main", title: "draft", body: "" });
    const rebuilt = await w.forge.createSpeculativeBranch(REPO, branch, repo.src.root, [
      { number: 2, headSha: heads[2]! },
    ]);
    expect((await w.forge.getPullRequest(REPO, draft)).headSha).toBe(rebuilt);
  });

  it("names the pull request that does not merge and changes nothing", async () => {
    const heads = await threePullsAndAClash();
    w.events.take();
    const error = await w.forge
      .createSpeculativeBranch(REPO, "spec", repo.src.root, [
        { number: 1, headSha: heads[1]! },
        { number: 4, headSha: heads[4]! },
      ])
      .catch((e: unknown) => e);
    expect(isForgeError(error, "conflict")).toBe(true);
    expect((error as MergeConflictError).pullRequest).toBe(4);
    expect(await findBranchSha(repo.git, "spec")).toBeNull();
    expect(w.events.take()).toEqual([]);
  });

  it("never replaces the default branch", async () => {
    await expect(w.forge.createSpeculativeBranch(REPO, "main", repo.src.root, [])).rejects.toMatchObject({
      kind: "invalid",
    });
    await expect(w.forge.deleteBranch(REPO, "main")).rejects.toMatchObject({ kind: "invalid" });
  });
});

describe("pull request writes", () => {
  it("edits, closes (once) and refuses to close a merged pull request", async () => {
    const head = await repo.push("feature", repo.src.root, { "f.txt": "f\n" });
    const n = await repo.open("feature");
    await w.forge.updatePullRequest(REPO, n, { title: "New title", body: "New body" });
    expect(await w.forge.getPullRequest(REPO, n)).toMatchObject({ title: "New title", body: "New body" });
    await expect(w.forge.updatePullRequest(REPO, n, { title: "  " })).rejects.toMatchObject({ kind: "invalid" });
    await w.forge.closePullRequest(REPO, n);
    await w.forge.closePullRequest(REPO, n);
    expect(await w.forge.getPullRequest(REPO, n)).toMatchObject({ state: "closed", mergedBy: null });
    await repo.push("other", repo.src.root, { "o.txt": "o\n" });
    const m = await repo.open("other");
    await w.forge.mergePullRequest(REPO, m, {
      method: "merge",
      expectedHeadSha: (await w.forge.getPullRequest(REPO, m)).headSha,
    });
    await expect(w.forge.closePullRequest(REPO, m)).rejects.toMatchObject({ kind: "invalid", message: /merged/ });
    expect(head).toMatch(/^[0-9a-f]{40}$/);
  });

  it.each(["merge", "rebase"] as const)(
    "updates a head with its base by %s, and reports a conflict without moving it",
    async (method) => {
      const head = await repo.push("feature", repo.src.root, { "f.txt": "f\n" });
      const n = await repo.open("feature");
      const mainTip = await repo.push("main", repo.src.root, { "m.txt": "m\n" });
      const updated = await w.forge.updatePullRequestWithBase(REPO, n, method);
      expect(await filesAt(repo.git, updated)).toEqual({ ...base, "f.txt": "f\n", "m.txt": "m\n" });
      const commit = await readCommit(repo.git, updated);
      expect(commit.parents).toEqual(method === "merge" ? [head, mainTip] : [mainTip]);
      expect(await w.forge.getPullRequest(REPO, n)).toMatchObject({ headSha: updated, commitsBehind: 0 });

      await repo.push("main", mainTip, { "f.txt": "main's f\n" });
      await expect(w.forge.updatePullRequestWithBase(REPO, n, method)).rejects.toMatchObject({
        kind: "conflict",
        paths: ["f.txt"],
      });
      expect((await w.forge.getPullRequest(REPO, n)).headSha).toBe(updated);
    },
  );

  it("posts comments as the bot and adds and removes labels, creating them on first use", async () => {
    await repo.push("feature", repo.src.root, { "f.txt": "f\n" });
    const n = await repo.open("feature");
    const id = await w.forge.comment(REPO, n, "Queued");
    expect((await w.forge.describePullRequest(REPO, n)).comments).toMatchObject([
      { id, author: "yardmaster[bot]", body: "Queued" },
    ]);
    await w.forge.addLabels(REPO, n, ["queued", "Backend"]);
    await w.forge.removeLabels(REPO, n, ["QUEUED", "never-there"]);
    expect((await w.forge.getPullRequest(REPO, n)).labels.map((l) => l.name)).toEqual(["Backend"]);
    await expect(w.forge.comment(REPO, n, "  ")).rejects.toMatchObject({ kind: "invalid" });
  });

  it("creates and then updates Yardmaster's own check run by name and head SHA", async () => {
    const head = await repo.push("feature", repo.src.root, { "f.txt": "f\n" });
    await w.forge.upsertCheckRun(REPO, {
      name: "Yardmaster",
      headSha: head,
      status: "in_progress",
      conclusion: null,
      title: "Waiting",
      summary: "",
    });
    const n = await repo.open("feature");
    expect((await w.forge.getPullRequest(REPO, n)).checks).toMatchObject([
      { name: "Yardmaster", state: "pending", app: "yardmaster", completedAt: null },
    ]);
    await w.forge.upsertCheckRun(REPO, {
      name: "Yardmaster",
      headSha: head,
      status: "completed",
      conclusion: "failure",
      title: "Dequeued",
      summary: "",
    });
    const checks = (await w.forge.getPullRequest(REPO, n)).checks;
    expect(checks).toMatchObject([{ name: "Yardmaster", state: "failure", description: "Dequeued" }]);
    expect(checks[0]!.completedAt).not.toBeNull();
    expect((await w.forge.describePullRequest(REPO, n)).checks).toHaveLength(1);
    await expect(
      w.forge.upsertCheckRun(REPO, {
        name: "Yardmaster",
        headSha: head,
        status: "completed",
        conclusion: null,
        title: "",
        summary: "",
      }),
    ).rejects.toMatchObject({ kind: "invalid" });
    await expect(
      w.forge.upsertCheckRun(REPO, {
        name: "Yardmaster",
        headSha: "f".repeat(40),
        status: "queued",
        conclusion: null,
        title: "",
        summary: "",
      }),
    ).rejects.toMatchObject({ kind: "not_found" });
  });
});

describe("branches", () => {
  it("deletes a branch (closing the pull requests it heads) and is quiet when it is gone", async () => {
    await repo.push("feature", repo.src.root, { "f.txt": "f\n" });
    const n = await repo.open("feature");
    await w.forge.deleteBranch(REPO, "feature");
    expect(await findBranchSha(repo.git, "feature")).toBeNull();
    expect((await w.forge.getPullRequest(REPO, n)).state).toBe("closed");
    await w.forge.deleteBranch(REPO, "feature");
  });

  it("fast-forwards only to a descendant, and a fast-forward that brings a head in merges its pull request", async () => {
    const head = await repo.push("feature", repo.src.root, { "f.txt": "f\n" });
    const n = await repo.open("feature");
    const side = await repo.push("side", repo.src.root, { "s.txt": "s\n" });
    await expect(w.forge.fastForwardBranch(REPO, "feature", side)).rejects.toMatchObject({ kind: "conflict" });
    await w.forge.fastForwardBranch(REPO, "main", head);
    expect(await w.forge.getBranchSha(REPO, "main")).toBe(head);
    expect(await w.forge.getPullRequest(REPO, n)).toMatchObject({
      state: "merged",
      mergedBy: "yardmaster[bot]",
      mergeCommitSha: head,
    });
  });
});

describe("concurrent writes to one repository", () => {
  it("give pull requests opened at once distinct numbers", async () => {
    for (const b of ["a", "b", "c", "d", "e"]) await repo.push(b, repo.src.root, { [`${b}.txt`]: `${b}\n` });
    const numbers = await Promise.all(["a", "b", "c", "d", "e"].map((b) => repo.open(b)));
    expect([...numbers].sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it("let one of two merges tested on the same base through; the other finds the base moved", async () => {
    const one = await repo.push("one", repo.src.root, { "one.txt": "1\n" });
    const two = await repo.push("two", repo.src.root, { "two.txt": "2\n" });
    await repo.open("one");
    await repo.open("two");
    const results = await Promise.allSettled(
      [1, 2].map((number) =>
        w.forge.mergePullRequests(REPO, {
          base: "main",
          expectedBaseSha: repo.src.root,
          method: "merge",
          pulls: [{ number, headSha: number === 1 ? one : two }],
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected")!;
    expect(failed.reason).toMatchObject({ kind: "conflict", message: /main moved/ });
    const states = [
      (await w.forge.getPullRequest(REPO, 1)).state,
      (await w.forge.getPullRequest(REPO, 2)).state,
    ].sort();
    expect(states).toEqual(["merged", "open"]);
  });
});
