/**
 * The local forge's reads through ForgePort (docs/local-forge.md "Pull request snapshots"):
 * every snapshot attribute the conditions language reads, from real git and PostgreSQL rows;
 * listing, default branch, configuration file, files, branches, permissions, branch protection.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { localForgeStore as store } from "../../../services/store/index.js";
import { REPO, type ForgeWorld, type Widgets } from "./forge-fixture.js";
import { worldSnapshot } from "./world-snapshot.js";

let w: ForgeWorld;
let repo: Widgets;

const snapshot = worldSnapshot(
  { "README.md": "hello\n", "lib.txt": "one\ntwo\n", "old.txt": "kept content\n" },
  async () => undefined,
);
beforeAll(snapshot.build);
afterAll(snapshot.dispose);
beforeEach(async () => {
  ({ world: w, repo } = await snapshot.restore());
});
afterEach(async () => w.cleanup());

describe("getPullRequest", () => {
  it("fills every attribute from git and the rows", async () => {
    const first = await repo.push(
      "feature",
      repo.src.root,
      { "lib.txt": "one\nTWO\nthree\n", "added.txt": "a\n" },
      "Edit lib\n\nwith a body",
    );
    const head = await repo.push("feature", first, { "old.txt": null, "new.txt": "kept content\n" }, "Rename old");
    const baseTip = await repo.push("main", repo.src.root, { "other.txt": "o\n" }, "Main moves on");
    const number = await w.forge.openPullRequest(REPO, {
      head: "feature",
      base: "main",
      title: "Feature",
      body: "Body <!-- hidden -->",
      author: "ada",
      draft: false,
    });
    const bob = await store.ensureLocalUser(w.db.pool, { login: "bob", kind: "User", now: new Date() });
    const pullId = (await store.findPullRequest(w.db.pool, 1, number))!.id;
    await store.requestReviewer(
      w.db.pool,
      pullId,
      (await store.ensureLocalUser(w.db.pool, { login: "carol", kind: "User", now: new Date() })).id,
    );
    await w.forge.review(REPO, number, { event: "APPROVE", body: "", author: bob.login });
    await w.forge.addLabels(REPO, number, ["ready", "backend"]);
    await w.forge.upsertCheckRun(REPO, {
      name: "Summary",
      headSha: head,
      status: "completed",
      conclusion: "success",
      title: "Queued",
      summary: "...",
    });
    await w.forge.postCheckRun(REPO, {
      sha: head,
      name: "lint",
      state: "failure",
      description: "2 problems",
      detailsUrl: "https://ci.example/1",
      app: "external",
    });

    const s = await w.forge.getPullRequest(REPO, number);
    const ada = await store.findLocalUser(w.db.pool, "ada");
    expect(s).toMatchObject({
      repository: REPO,
      number,
      title: "Feature",
      body: "Body <!-- hidden -->",
      url: `local-forge://${REPO}/pull/${number}`,
      author: { id: ada!.id, login: "ada" },
      base: "main",
      head: "feature",
      headSha: head,
      baseSha: baseTip,
      headRepoFullName: REPO,
      draft: false,
      state: "open",
      locked: false,
      conflict: false,
      commitsBehind: 1,
      labels: [
        { name: "backend", color: "ededed", default: false },
        { name: "ready", color: "ededed", default: false },
      ],
      assignees: [],
      requestedReviewers: ["carol"],
      requestedTeams: [],
      reviews: [{ author: "bob", state: "APPROVED" }],
      addedLines: 3,
      deletedLines: 1,
      milestone: null,
      mergedBy: null,
      mergeCommitSha: null,
      closedAt: null,
      mergedAt: null,
      fromFork: false,
      reviewThreadsResolved: [],
      reviewThreadsUnresolved: [],
    });
    expect([...s.files].sort()).toEqual(["added.txt", "lib.txt", "new.txt", "old.txt"]);
    expect([s.addedFiles.sort(), s.modifiedFiles, s.removedFiles]).toEqual([
      ["added.txt", "new.txt"],
      ["lib.txt"],
      ["old.txt"],
    ]);
    expect(s.commits.map((c) => [c.sha, c.title, c.author, c.parents, c.verified])).toEqual([
      [first, "Edit lib", "Ada", [repo.src.root], false],
      [head, "Rename old", "Ada", [first], false],
    ]);
    expect(s.commits[0]!.message).toBe("Edit lib\n\nwith a body");
    expect(s.checks.map((c) => [c.name, c.state, c.app, c.description, c.detailsUrl])).toEqual([
      ["Summary", "success", "yardmaster", "Queued", null],
      ["lint", "failure", "external", "2 problems", "https://ci.example/1"],
    ]);
    expect(s.updatedAt.getTime()).toBeGreaterThan(s.createdAt.getTime());
  });

  it("reports a conflict with the base and the newest check run of each name", async () => {
    await repo.push("main", repo.src.root, { "lib.txt": "one\nfrom main\n" });
    const head = await repo.push("clash", repo.src.root, { "lib.txt": "one\nfrom clash\n" });
    const number = await repo.open("clash");
    await w.forge.postCheckRun(REPO, {
      sha: head,
      name: "test",
      state: "failure",
      description: "first",
      detailsUrl: null,
      app: "ci-a",
    });
    await w.forge.postCheckRun(REPO, {
      sha: head,
      name: "test",
      state: "success",
      description: "second",
      detailsUrl: null,
      app: "ci-b",
    });
    const s = await w.forge.getPullRequest(REPO, number);
    expect(s.conflict).toBe(true);
    expect(s.checks.map((c) => [c.name, c.state, c.app])).toEqual([["test", "success", "ci-b"]]);
  });

  it("keeps a merged pull request's own diff and records who merged it", async () => {
    const head = await repo.push("feature", repo.src.root, { "added.txt": "a\n" });
    const number = await repo.open("feature");
    const { newBaseSha } = await w.forge.mergePullRequests(REPO, {
      base: "main",
      expectedBaseSha: repo.src.root,
      method: "merge",
      pulls: [{ number, headSha: head }],
    });
    const s = await w.forge.getPullRequest(REPO, number);
    expect(s).toMatchObject({
      state: "merged",
      mergedBy: "yardmaster[bot]",
      mergeCommitSha: newBaseSha,
      conflict: false,
      files: ["added.txt"],
      baseSha: repo.src.root,
    });
    expect(s.mergedAt).toEqual(s.closedAt);
  });

  it("is not_found for an unknown pull request or repository", async () => {
    await expect(w.forge.getPullRequest(REPO, 99)).rejects.toMatchObject({ kind: "not_found", message: /#99/ });
    await expect(w.forge.getPullRequest("acme/nothing", 1)).rejects.toMatchObject({
      kind: "not_found",
      message: /acme\/nothing/,
    });
  });
});

describe("listOpenPullRequests", () => {
  it("lists open pull requests oldest first, drafts included, closed and merged left out", async () => {
    for (const b of ["a", "b", "c", "d"]) await repo.push(b, repo.src.root, { [`${b}.txt`]: `${b}\n` });
    const [a, b, c, d] = [
      await repo.open("a"),
      await repo.open("b", { draft: true }),
      await repo.open("c"),
      await repo.open("d"),
    ];
    await w.forge.closePullRequest(REPO, c);
    await w.forge.mergePullRequest(REPO, d, {
      method: "squash",
      expectedHeadSha: (await w.forge.getPullRequest(REPO, d)).headSha,
    });
    const open = await w.forge.listOpenPullRequests(REPO);
    expect(open.map((p) => [p.number, p.draft])).toEqual([
      [a, false],
      [b, true],
    ]);
  });
});

describe("findOpenPullRequest", () => {
  it("finds the open pull request from a branch into a base; none once closed, none into another base", async () => {
    await repo.push("draft", repo.src.root, { "d.txt": "d\n" });
    await repo.push("release", repo.src.root, { "r.txt": "r\n" });
    const n = await repo.open("draft", { draft: true });
    expect(await w.forge.findOpenPullRequest(REPO, "draft", "main")).toBe(n);
    expect(await w.forge.findOpenPullRequest(REPO, "draft", "release")).toBeNull();
    expect(await w.forge.findOpenPullRequest(REPO, "nowhere", "main")).toBeNull();
    await w.forge.closePullRequest(REPO, n);
    expect(await w.forge.findOpenPullRequest(REPO, "draft", "main")).toBeNull();
  });
});

describe("repository reads", () => {
  it("reads the default branch, branches, files at any ref, and the configuration file in lookup order", async () => {
    expect(await w.forge.getDefaultBranch(REPO)).toBe("main");
    expect(await w.forge.getBranchSha(REPO, "main")).toBe(repo.src.root);
    expect(await w.forge.readFile(REPO, "main", "lib.txt")).toBe("one\ntwo\n");
    expect(await w.forge.readFile(REPO, "main", "missing.txt")).toBeNull();
    expect(await w.forge.readConfigFile(REPO)).toBeNull();
    const withGithub = await repo.push("main", repo.src.root, { ".github/yardmaster.yml": "queue_rules: []\n" });
    expect(await w.forge.readConfigFile(REPO)).toEqual({
      path: ".github/yardmaster.yml",
      text: "queue_rules: []\n",
      sha: withGithub,
    });
    const withBoth = await repo.push("main", withGithub, { ".yardmaster.yml": "merge_queue: {}\n" });
    expect(await w.forge.readConfigFile(REPO)).toEqual({
      path: ".yardmaster.yml",
      text: "merge_queue: {}\n",
      sha: withBoth,
    });
    await expect(w.forge.getBranchSha(REPO, "nope")).rejects.toMatchObject({ kind: "not_found" });
    expect(await w.forge.getBranch(REPO, "main")).toMatchObject({
      sha: withBoth,
      treeSha: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
  });

  it("gives each user's permission: write on first use, none for strangers, as set otherwise", async () => {
    await repo.push("feature", repo.src.root, { "f.txt": "f\n" }, "f", { pusher: "dana" });
    await store.setLocalUserPermission(w.db.pool, { login: "erin", permission: "maintain", now: new Date() });
    expect(await w.forge.getPermission(REPO, "dana")).toBe("write");
    expect(await w.forge.getPermission(REPO, "DANA")).toBe("write");
    expect(await w.forge.getPermission(REPO, "erin")).toBe("maintain");
    expect(await w.forge.getPermission(REPO, "stranger")).toBe("none");
    await expect(w.forge.getPermission("acme/nothing", "dana")).rejects.toMatchObject({ kind: "not_found" });
  });

  it("requires, as branch protection, the checks the branch's CI file declares, described as the local CI's", async () => {
    expect(await w.forge.getBranchProtection(REPO, "main")).toEqual({
      requiredChecks: [],
      requiredApprovals: 0,
      requireConversationResolution: false,
      description: "🛡 required by the local CI (.yardmaster/ci.yml)",
    });
    await repo.push("main", repo.src.root, {
      ".yardmaster/ci.yml": "checks:\n  - {name: test, run: 'true'}\n  - {name: lint, run: 'true'}\n",
    });
    expect((await w.forge.getBranchProtection(REPO, "main")).requiredChecks).toEqual(["test", "lint"]);
  });

  it("protects nothing on a branch that does not exist, as GitHub answers 404 for it", async () => {
    // A queued pull request is re-evaluated before the branch deletion's event dequeues it.
    expect(await w.forge.getBranchProtection(REPO, "gone")).toMatchObject({
      requiredChecks: [],
      requiredApprovals: 0,
      requireConversationResolution: false,
    });
  });
});
