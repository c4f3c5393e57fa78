/**
 * Three real configuration files (test/fixtures/config/real-configs/, copied verbatim as each
 * repository's `.github/yardmaster.yml`) acting on local repositories: pull requests crafted to
 * match their rules (base branch, labels, files, author, head branch, checks, reviews, time)
 * get the actions the files ask for, each with its activity log event, and rules that do not
 * match do not act (docs/workflow-automation.md). The only adaptations are in the repositories:
 * branches the files name (`master`, `release-v0.14`) exist, and the local CI declares the
 * workflow `e2e.yml` one file dispatches. Checks of other CIs are posted as those CIs would.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckState } from "../../../services/forge/types.js";
import { queueWorld, type QueueWorld, type RepoHandle } from "../queue-world.js";

const FIXTURES = "test/fixtures/config/real-configs";
const real = (file: string) => readFileSync(join(FIXTURES, file), "utf8");
const DAY = 24 * 3_600_000;
let ahead = 0; // ms the runners' clock is ahead of the real one

let w: QueueWorld;
let bux: RepoHandle;
let lab: RepoHandle;
let kirami: RepoHandle;
beforeAll(async () => {
  w = await queueWorld("pull_request_rules: []\n", {}, { now: () => Date.now() + ahead });
  bux = await w.repository("BuxOrg/bux", {
    ".github/yardmaster.yml": real("BuxOrg__bux__github-mergify.yml"),
    "go.mod": "module bux\n",
  });
  await bux.branch("master");
  lab = await w.repository("instructlab/instructlab", {
    ".github/yardmaster.yml": real("instructlab__instructlab__github-mergify.yml"),
    ".yardmaster/ci.yml": 'checks:\n  - name: e2e.yml\n    run: "true"\n    timeout: "1 min"\n',
    "README.md": "instructlab\n",
  });
  await lab.branch("release-v0.14");
  kirami = await w.repository("A-kirami/nonebot-plugin-chatgpt", {
    ".github/yardmaster.yml": real("A-kirami__nonebot-plugin-chatgpt__github-mergify.yml"),
    "c.txt": "base\n",
  });
}, 60_000);
afterAll(async () => w?.cleanup());

const until = <T>(probe: () => Promise<T | null | undefined | false>, timeoutMs = 30_000) =>
  w.untilSome(probe, timeoutMs);
const view = (r: RepoHandle, n: number) => w.forge.describePullRequest(r.repo, n);
/** The activity log events of pull request `n` of `r` (type and metadata), in order. */
async function logged(r: RepoHandle, n: number, prefix = "action.") {
  const rows = await w.db.pool.query<{ type: string; metadata: string }>(
    "SELECT type, metadata FROM event_outbox WHERE repository = $1 AND pull_request = $2 AND type LIKE $3 ORDER BY id",
    [r.repo, n, `${prefix}%`],
  );
  return rows.rows.map((e) => ({ type: e.type, metadata: JSON.parse(e.metadata) }));
}
const types = async (r: RepoHandle, n: number) => (await logged(r, n)).map((e) => e.type);
/** Posts check runs of an outside CI on the pull request's head. */
async function post(r: RepoHandle, n: number, checks: Record<string, CheckState>) {
  const sha = (await w.forge.getPullRequest(r.repo, n)).headSha;
  for (const [name, state] of Object.entries(checks))
    await w.forge.postCheckRun(r.repo, { sha, name, state, description: "", detailsUrl: null, app: "ci" });
}
const approve = (r: RepoHandle, n: number, author: string) =>
  w.forge.review(r.repo, n, { event: "APPROVE", body: "", author });
const branchGone = async (r: RepoHandle, branch: string) =>
  (await w.forge.getBranchSha(r.repo, branch).catch((e) => e))?.kind === "not_found";

describe("instructlab/instructlab: labels by files and base, approvals, merge, workflow dispatch, backport", () => {
  it("the files and the base choose the labels; the other label rules do not act", async () => {
    const docs = await lab.pull("docs-and-tests", { "docs/guide.md": "# Guide\n", "tests/test_guide.py": "x = 1\n" });
    const release = await lab.pull("release-fix", { "src/fix.py": "y = 2\n" }, { base: "release-v0.14" });
    await until(async () => (await view(lab, docs)).labels.length === 2 && (await view(lab, release)).labels.length);
    expect((await view(lab, docs)).labels.sort()).toEqual(["documentation", "testing"]);
    expect((await view(lab, release)).labels).toEqual(["release-branch"]);
    // Rules that remove a label the pull request does not have (ci-failure, one-approval) log nothing.
    expect(await logged(lab, docs)).toEqual([
      { type: "action.label", metadata: { added: ["documentation"], removed: [] } },
      { type: "action.label", metadata: { added: ["testing"], removed: [] } },
    ]);
  });

  it("one approval labels one-approval; the second, with DCO, lint and tests green, merges and deletes the head", async () => {
    const n = await lab.pull("feature-x", { "src/instructlab/x.py": "x = 1\n" });
    await post(lab, n, { DCO: "success", lint: "success", "test-workflow-complete": "success" });
    await approve(lab, n, "alice");
    await until(async () => (await view(lab, n)).labels.includes("one-approval"));
    expect((await view(lab, n)).pull.state).toBe("open");
    await approve(lab, n, "bob");
    const merged = await until(async () => {
      const v = await view(lab, n);
      return v.pull.state === "merged" && !v.labels.includes("one-approval") && (await branchGone(lab, "feature-x"))
        ? v
        : null;
    });
    expect(merged.pull.mergedBy).toBe("yardmaster[bot]");
    expect(await types(lab, n)).toEqual(["action.label", "action.merge", "action.delete_head_branch", "action.label"]);
    expect((await logged(lab, n)).map((e) => e.metadata)).toEqual([
      { added: ["one-approval"], removed: [] },
      { branch: "main" },
      { branch: "feature-x" },
      { added: [], removed: ["one-approval"] },
    ]);
  });

  it("e2e-trigger dispatches e2e.yml with the rendered input and is removed; the backport label backports", async () => {
    const n = await lab.pull("needs-e2e", { "src/instructlab/y.py": "y = 1\n" });
    await w.forge.label(lab.repo, n, ["e2e-trigger", "backport-release-v0.14"], []);
    const backport = await until(async () =>
      (await w.forge.listOpenPullRequests(lab.repo)).find((p) => p.head === `yardmaster/bp/release-v0.14/pr-${n}`),
    );
    await until(async () => !(await view(lab, n)).labels.includes("e2e-trigger"));
    expect(backport).toMatchObject({ base: "release-v0.14", title: `Add needs-e2e (backport #${n})` });
    expect(backport.files).toEqual(["src/instructlab/y.py"]);
    const events = await logged(lab, n);
    expect(events.find((e) => e.type === "action.host_actions")?.metadata).toEqual({
      workflow: "e2e.yml",
      inputs: { pr_or_branch: String(n) },
    });
    expect(events.find((e) => e.type === "action.backport")?.metadata).toMatchObject({
      to: "release-v0.14",
      pull_request_number: backport.number,
      conflicts: false,
    });
  });
});

describe("A-kirami/nonebot-plugin-chatgpt: assign, request_reviews, dismiss_reviews, comment, label, review", () => {
  const STATIC = { "DeepSource: Python": "success", "Codacy Static Code Analysis": "success" } as const;

  it("a contributor's pull request: assigned to the owner, reviews requested when analysis passes, approvals dismissed on push", async () => {
    const n = await kirami.pull("chat-history", { "chat.py": "history = []\n" });
    await until(async () => (await view(kirami, n)).assignees.includes("A-kirami"));
    expect((await view(kirami, n)).requestedReviewers).toEqual([]);
    await post(kirami, n, STATIC);
    await until(async () => (await view(kirami, n)).requestedReviewers.includes("A-kirami"));
    await approve(kirami, n, "bob");
    await w.runner.drain();
    await kirami.commitOnTop("chat-history", { "chat2.py": "more = []\n" }, "ada");
    await until(async () => (await view(kirami, n)).reviews.every((r) => r.state === "DISMISSED"));
    expect(await logged(kirami, n)).toEqual([
      { type: "action.assign", metadata: { added: ["A-kirami"], removed: [] } },
      { type: "action.request_reviews", metadata: { reviewers: ["A-kirami"], team_reviewers: [] } },
      { type: "action.dismiss_reviews", metadata: { users: ["bob"] } },
    ]);
    // No check failed, no conflict, not merged: no comment.
    expect((await view(kirami, n)).comments).toEqual([]);
  });

  it("a failing static analysis gets the file's comment, rendered for the author", async () => {
    const n = await kirami.pull("lint-errors", { "bad.py": "x=1\n" });
    await post(kirami, n, { "DeepSource: Python": "failure" });
    const comment = await until(async () => (await view(kirami, n)).comments[0]);
    expect(comment.body).toContain("@ada 这个拉取请求中存在代码质量问题, 请查看状态检查中的详细报告并修复问题");
    expect(await types(kirami, n)).toEqual(["action.assign", "action.comment"]);
  });

  it("a conflict gets the comment and the conflict label; resolved, the label goes", async () => {
    const n = await kirami.pull("edit-c", { "c.txt": "from the pull request\n" });
    await until(async () => (await view(kirami, n)).assignees.length === 1);
    await kirami.commitOnTop("main", { "c.txt": "from main\n" }, "A-kirami");
    const conflicted = await until(async () => {
      const v = await view(kirami, n);
      return v.labels.includes("conflict") && v.comments.length === 1 ? v : null;
    });
    expect(conflicted.comments[0].body).toContain("@ada 这个 PR 中发生了冲突, 请解决此冲突");
    // main back to the common content: the pull request applies again.
    await kirami.commitOnTop("main", { "c.txt": "base\n" }, "A-kirami");
    await until(async () => !(await view(kirami, n)).labels.includes("conflict"));
    expect((await logged(kirami, n)).map((e) => e.type)).toEqual([
      "action.assign",
      "action.comment",
      "action.label",
      "action.label",
    ]);
  });

  it("the owner's pull request labelled approve is approved by the bot, queued, merged, its head deleted", async () => {
    const n = await kirami.pull("owner-change", { "owner.py": "owner = True\n" }, { author: "A-kirami" });
    await post(kirami, n, { ...STATIC, CodeTests: "success" });
    await w.forge.label(kirami.repo, n, ["approve"], []);
    const review = await until(async () => (await view(kirami, n)).reviews.find((r) => r.state === "APPROVED"));
    expect(review.author).toBe("yardmaster[bot]");
    const events = await logged(kirami, n);
    expect(events.find((e) => e.type === "action.review")?.metadata).toEqual({
      review_type: "APPROVE",
      reviewer: null,
      message: null,
    });
    expect(events.some((e) => e.type === "action.request_reviews")).toBe(false);
    // Approved with CodeTests green: the file's queue rule merges it; merged, its head branch goes.
    await until(
      async () => (await view(kirami, n)).pull.state === "merged" && (await branchGone(kirami, "owner-change")),
    );
    const after = await logged(kirami, n);
    expect(after.map((e) => e.type)).toEqual(expect.arrayContaining(["action.queue.enter", "action.queue.merged"]));
    expect(after.find((e) => e.type === "action.delete_head_branch")?.metadata).toEqual({ branch: "owner-change" });
    // The thanks go to contributors only, not to the owner.
    expect(after.filter((e) => e.type === "action.comment")).toEqual([]);
  });
});

describe("BuxOrg/bux: label by head branch, assign, comment, merge, delete_head_branch, close", () => {
  it("a contributor's feature branch is labelled, assigned and welcomed; nothing else acts", async () => {
    const n = await bux.pull("feature/widget", { "widget.go": "package bux\n" });
    const v = await until(async () => {
      const x = await view(bux, n);
      return x.labels.length && x.assignees.length && x.comments.length ? x : null;
    });
    expect(v.labels).toEqual(["feature"]);
    expect(v.assignees).toEqual(["mrz1836"]);
    expect(v.comments.map((c) => c.body.split("\n")[0])).toEqual(["Welcome to our open-source project @ada! 💘"]);
    await w.runner.drain();
    expect(await types(bux, n)).toEqual(["action.assign", "action.label", "action.comment"]);
    expect((await view(bux, n)).pull.state).toBe("open");
  });

  it("the maintainer's approved hotfix into master merges, is announced and its head branch deleted", async () => {
    const n = await bux.pull("hotfix/crash", { "crash.go": "package bux\n" }, { author: "mrz1836", base: "master" });
    await w.forge.label(bux.repo, n, ["automerge"], []);
    await post(bux, n, { "test (1.18.x, ubuntu-latest)": "success", "Analyze (go)": "success" });
    await until(async () => (await view(bux, n)).labels.includes("hot-fix"));
    expect((await view(bux, n)).pull.state).toBe("open");
    await approve(bux, n, "icellan");
    const merged = await until(async () => {
      const v = await view(bux, n);
      return v.pull.state === "merged" && v.comments.length === 1 && (await branchGone(bux, "hotfix/crash")) ? v : null;
    });
    expect(merged.comments[0].body).toContain("✅ @mrz1836: **Add hotfix/crash** has been merged successfully.");
    expect(await types(bux, n)).toEqual([
      "action.assign",
      "action.label",
      "action.merge",
      "action.comment",
      "action.delete_head_branch",
    ]);
    expect((await logged(bux, n, "action.merge"))[0].metadata).toEqual({ branch: "master" });
  });

  it("a pull request into master untouched for 21 days is closed with the file's message and labelled stale", async () => {
    const n = await bux.pull("docs/readme", { "README.md": "# bux\n" }, { author: "galt-tr", base: "master" });
    const feature = (await w.forge.listOpenPullRequests(bux.repo)).find((p) => p.head === "feature/widget")!;
    // galt-tr is a maintainer: labelled and assigned, not welcomed.
    await until(async () => (await view(bux, n)).labels.includes("documentation"));
    await w.runner.drain();
    expect(await types(bux, n)).toEqual(["action.assign", "action.label"]);
    // 22 days later, by the runner's clock alone: the file's updated-at condition fires.
    ahead = 22 * DAY;
    const closed = await until(async () => {
      const v = await view(bux, n);
      return v.pull.state === "closed" && v.labels.includes("stale") && v.comments.length === 1 ? v : null;
    });
    expect(closed.comments[0].body).toContain("This pull request looks stale. Feel free to reopen it");
    expect(await types(bux, n)).toEqual(["action.assign", "action.label", "action.close", "action.label"]);
    // The rule is for master: the stale pull request into main stays open.
    await w.runner.drain();
    expect((await view(bux, feature.number)).pull.state).toBe("open");
  });
});
