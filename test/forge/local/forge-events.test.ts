/**
 * The ForgeEvents each local forge action emits, exactly and in order: the same events a GitHub
 * webhook would map to (docs/local-forge.md "Writes and events"), delivered after the change committed. A
 * failing sink is logged and loses none of the forge's own state.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ForgeEvent } from "../../../services/forge/types.js";
import { localForgeStore as store } from "../../../services/store/index.js";
import { REPO, type ForgeWorld, type Widgets } from "./forge-fixture.js";
import { worldSnapshot } from "./world-snapshot.js";
import { eventually } from "../../support/eventually.js";

let w: ForgeWorld;
let repo: Widgets;
/** Head of pull request #1 (branch "feature", by ada). */
let head: string;

const snapshot = worldSnapshot({ "README.md": "hello\n" }, async (_, repo) => {
  const head = await repo.push("feature", repo.src.root, { "f.txt": "f\n" });
  await repo.open("feature");
  return head;
});
beforeAll(snapshot.build);
afterAll(snapshot.dispose);
beforeEach(async () => {
  ({ world: w, repo, built: head } = await snapshot.restore());
});
afterEach(async () => w.cleanup());

const R = REPO;
const user = async (login: string) => (await store.findLocalUser(w.db.pool, login))!;

/** [action, what it does, the events expected (computed after the action from its result)]. */
// biome-ignore format: a table, one row per line
const cases: [string, () => Promise<unknown>, (result: any) => Promise<ForgeEvent[]> | ForgeEvent[]][] = [
  ["opening a pull request", async () => {
    await repo.push("second", repo.src.root, { "s.txt": "s\n" });
    w.events.take();
    return repo.open("second");
  }, (n) => [{ kind: "pull_request_opened", repo: R, number: n }]],
  ["pushing to a pull request's head", () => repo.push("feature", head, { "g.txt": "g\n" }, "more", { pusher: "bob" }), (sha) => [
    { kind: "branch_pushed", repo: R, branch: "feature", before: head, after: sha, forced: false },
    { kind: "pull_request_synchronized", repo: R, number: 1, headSha: sha, by: "bob" },
  ]],
  ["force-pushing a pull request's head", () => repo.push("feature", repo.src.root, { "h.txt": "h\n" }, "redo", { force: true }), (sha) => [
    { kind: "branch_pushed", repo: R, branch: "feature", before: head, after: sha, forced: true },
    { kind: "pull_request_synchronized", repo: R, number: 1, headSha: sha, by: "ada" },
  ]],
  ["pushing the base past a pull request's head (merged by push)", () => repo.push("main", head, { "m.txt": "m\n" }, "merge by hand", { pusher: "bob" }), (sha) => [
    { kind: "branch_pushed", repo: R, branch: "main", before: repo.src.root, after: sha, forced: false },
    { kind: "pull_request_closed", repo: R, number: 1, merged: true, mergeCommitSha: sha },
  ]],
  ["editing the title", () => w.forge.updatePullRequest(R, 1, { title: "Renamed" }), () => [{ kind: "pull_request_edited", repo: R, number: 1 }]],
  ["editing nothing", () => w.forge.updatePullRequest(R, 1, { title: "Work on feature" }), () => []],
  ["retargeting and renaming at once", async () => {
    await repo.push("release", repo.src.root, { "r.txt": "r\n" });
    w.events.take();
    return w.forge.editPullRequest(R, 1, { title: "For the release", base: "release" });
  }, () => [{ kind: "pull_request_edited", repo: R, number: 1 }]],
  ["adding two labels and one already there", async () => {
    await w.forge.addLabels(R, 1, ["a"]);
    w.events.take();
    return w.forge.label(R, 1, ["a", "b", "c"], []);
  }, () => [{ kind: "pull_request_labeled", repo: R, number: 1 }, { kind: "pull_request_labeled", repo: R, number: 1 }]],
  ["removing a label and one that is not there", async () => {
    await w.forge.addLabels(R, 1, ["a"]);
    w.events.take();
    return w.forge.removeLabels(R, 1, ["a", "zzz"]);
  }, () => [{ kind: "pull_request_labeled", repo: R, number: 1 }]],
  ["approving", () => w.forge.review(R, 1, { event: "APPROVE", body: "", author: "bob" }), () => [{ kind: "pull_request_reviewed", repo: R, number: 1 }]],
  ["commenting as a person", () => w.forge.commentAs(R, 1, "@yardmaster queue", "bob"), async (id) => [{
    kind: "comment_created", repo: R, number: 1, commentId: id, body: "@yardmaster queue",
    author: { login: "bob", id: (await user("bob")).id, type: "User", avatarUrl: null }, url: `local-forge://${R}/pull/1#issuecomment-${id}`,
  }]],
  ["commenting as the bot", () => w.forge.comment(R, 1, "Queued"), async (id) => [{
    kind: "comment_created", repo: R, number: 1, commentId: id, body: "Queued",
    author: { login: "yardmaster[bot]", id: (await user("yardmaster[bot]")).id, type: "Bot", avatarUrl: null }, url: `local-forge://${R}/pull/1#issuecomment-${id}`,
  }]],
  ["closing, then closing again", async () => {
    await w.forge.closePullRequest(R, 1);
    await w.forge.closePullRequest(R, 1);
  }, () => [{ kind: "pull_request_closed", repo: R, number: 1, merged: false, mergeCommitSha: null }]],
  ["merging", () => w.forge.mergePullRequest(R, 1, { method: "merge", expectedHeadSha: head }), (tip) => [
    { kind: "branch_pushed", repo: R, branch: "main", before: repo.src.root, after: tip, forced: false },
    { kind: "pull_request_closed", repo: R, number: 1, merged: true, mergeCommitSha: tip },
  ]],
  ["building a speculative branch", () => w.forge.createSpeculativeBranch(R, "yardmaster/merge-queue/main/1", repo.src.root, [{ number: 1, headSha: head }]), (tip) => [
    { kind: "branch_pushed", repo: R, branch: "yardmaster/merge-queue/main/1", before: null, after: tip, forced: false },
  ]],
  ["rebuilding a speculative branch under a draft pull request", async () => {
    const branch = "yardmaster/merge-queue/main/1";
    const first = await w.forge.createSpeculativeBranch(R, branch, repo.src.root, [{ number: 1, headSha: head }]);
    const draft = await w.forge.openDraftPullRequest(R, { head: branch, base: "main", title: "draft", body: "" });
    await repo.push("other", repo.src.root, { "o.txt": "o\n" });
    await repo.open("other");
    w.events.take();
    const second = await w.forge.createSpeculativeBranch(R, branch, repo.src.root, [{ number: 3, headSha: await w.forge.getBranchSha(R, "other") }]);
    return { first, second, draft };
  }, ({ first, second, draft }) => [
    { kind: "branch_pushed", repo: R, branch: "yardmaster/merge-queue/main/1", before: first, after: second, forced: true },
    { kind: "pull_request_synchronized", repo: R, number: draft, headSha: second, by: "yardmaster[bot]" },
  ]],
  ["opening a draft pull request", async () => {
    await w.forge.createSpeculativeBranch(R, "spec", repo.src.root, [{ number: 1, headSha: head }]);
    w.events.take();
    return w.forge.openDraftPullRequest(R, { head: "spec", base: "main", title: "draft", body: "" });
  }, (n) => [{ kind: "pull_request_opened", repo: R, number: n }]],
  ["deleting a pull request's head branch", () => w.forge.deleteBranch(R, "feature"), () => [
    { kind: "branch_pushed", repo: R, branch: "feature", before: head, after: null, forced: false },
    { kind: "pull_request_closed", repo: R, number: 1, merged: false, mergeCommitSha: null },
  ]],
  ["deleting a branch that does not exist", () => w.forge.deleteBranch(R, "ghost"), () => []],
  ["deleting a pull request's base branch as a person", async () => {
    const release = await repo.push("release", repo.src.root, { "r.txt": "r\n" });
    await repo.push("topic", release, { "t.txt": "t\n" });
    await repo.open("topic", { base: "release" });
    w.events.take();
    await w.forge.deleteBranchAs(R, "release", "bob");
    return release;
  }, (release) => [
    { kind: "branch_pushed", repo: R, branch: "release", before: release, after: null, forced: false },
    { kind: "pull_request_closed", repo: R, number: 2, merged: false, mergeCommitSha: null },
  ]],
  ["updating a head with its base", async () => {
    await repo.push("main", repo.src.root, { "m.txt": "m\n" });
    w.events.take();
    return w.forge.updatePullRequestWithBase(R, 1, "merge");
  }, (sha) => [
    { kind: "branch_pushed", repo: R, branch: "feature", before: head, after: sha, forced: false },
    { kind: "pull_request_synchronized", repo: R, number: 1, headSha: sha, by: "yardmaster[bot]" },
  ]],
  ["writing Yardmaster's own check run", () => w.forge.upsertCheckRun(R, { name: "Summary", headSha: head, status: "queued", conclusion: null, title: "", summary: "" }), () => [
    { kind: "checks_changed", repo: R, sha: head },
  ]],
  ["posting an external check run", () => w.forge.postCheckRun(R, { sha: head, name: "ci", state: "success", description: "", detailsUrl: null, app: "ext" }), () => [
    { kind: "checks_changed", repo: R, sha: head },
  ]],
];

describe("events per action", () => {
  it.each(cases)("%s", async (_name, action, expected) => {
    const result = await action();
    expect(w.events.take()).toEqual(await expected(result));
  });

  it("importing a repository reports each of its branches as pushed", async () => {
    const other = await repo.src.commit("topic", repo.src.root, { "t.txt": "t\n" });
    await w.forge.addRepository({ repo: "acme/gadgets", fromPath: repo.src.path, defaultBranch: null, atRef: null });
    const pushed = w.events
      .take()
      .map((e) => (e.kind === "branch_pushed" ? [e.repo, e.branch, e.before, e.after, e.forced] : e.kind));
    expect(pushed).toEqual([
      ["acme/gadgets", "feature", null, head, false],
      ["acme/gadgets", "main", null, repo.src.root, false],
      ["acme/gadgets", "topic", null, other, false],
    ]);
  });

  it("a pull request whose commit declares checks also reports its pending check runs", async () => {
    const sha = await repo.push("ci", repo.src.root, {
      ".yardmaster/ci.yml": "checks:\n  - {name: test, run: 'true'}\n",
    });
    w.events.take();
    const n = await repo.open("ci");
    expect(w.events.take()).toEqual([
      { kind: "pull_request_opened", repo: R, number: n },
      { kind: "checks_changed", repo: R, sha },
    ]);
  });
});

describe("a failing sink", () => {
  it("is logged, loses none of the forge's own state, and gets the events again once it works", async () => {
    let up = false;
    const got: ForgeEvent[] = [];
    const broken = w.another({ sink: (e) => (up ? void got.push(e) : Promise.reject(new Error("queue is down"))) });
    const id = await broken.commentAs(R, 1, "still here", "bob");
    await broken.addLabels(R, 1, ["kept"]);
    const view = await broken.describePullRequest(R, 1);
    expect(view.comments.map((c) => c.id)).toEqual([id]);
    expect(view.labels).toEqual(["kept"]);
    // Logged once for the failure, not once per event or retry.
    expect(w.warnings.filter((m) => /sink failed/.test(m))).toHaveLength(1);
    up = true;
    const kinds = ["comment_created", "pull_request_labeled"];
    await eventually(async () => expect(got.map((e) => e.kind)).toEqual(kinds), 10_000);
  });
});
