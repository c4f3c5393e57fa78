/**
 * Writing through the GitHub adapter: draft pull requests, edits, updates with the base (merge,
 * API rebase, a fork's background update), merges with each method, check runs, comments,
 * labels and permissions, against the OpenAPI-checked double over real git.
 */
import { describe, expect, it } from "vitest";
import {
  commitsBetween,
  isMergeConflict,
  readCommit,
  readFile,
  readRef,
} from "../../../services/forge/local/git/index.js";
import { isForgeError, type MergeMethod } from "../../../services/forge/types.js";
import { useGithubDouble, type GithubDouble } from "./support/github-double.js";
import { forgeFor, repoWithPull, repoWithPulls } from "./support/scenarios.js";

let double: GithubDouble;
useGithubDouble((d) => (double = d));

describe("pull requests", () => {
  it("opens a draft, edits and closes it", async () => {
    const { repo } = await repoWithPulls(double, 1);
    await repo.commit("yardmaster/merge-queue/x", { "q.txt": "q\n" }, "Queue");
    const forge = forgeFor(double);
    const n = await forge.openDraftPullRequest(repo.fullName, {
      head: "yardmaster/merge-queue/x",
      base: "main",
      title: "merge queue: embarking #1",
      body: "checks",
    });
    expect(repo.pull(n)).toMatchObject({
      draft: true,
      title: "merge queue: embarking #1",
      body: "checks",
      headRef: "yardmaster/merge-queue/x",
    });
    await forge.updatePullRequest(repo.fullName, n, { body: "new body" });
    expect(repo.pull(n)).toMatchObject({ title: "merge queue: embarking #1", body: "new body" });
    await forge.closePullRequest(repo.fullName, n);
    expect(repo.pull(n)!.state).toBe("closed");
  });

  it("opens a regular pull request where GitHub offers no drafts", async () => {
    const { repo } = await repoWithPulls(double, 1);
    repo.allowDrafts = false;
    await repo.commit("yardmaster/merge-queue/y", { "q.txt": "q\n" }, "Queue");
    const before = double.calls("pulls/create").length;
    const n = await forgeFor(double).openDraftPullRequest(repo.fullName, {
      head: "yardmaster/merge-queue/y",
      base: "main",
      title: "merge queue",
      body: "",
    });
    expect(repo.pull(n)!.draft).toBe(false);
    expect(
      double
        .calls("pulls/create")
        .slice(before)
        .map((r) => (r.body as { draft?: boolean }).draft),
    ).toEqual([true, undefined]);
  });
});

describe("updatePullRequestWithBase", () => {
  it("merges the base into a same-repository head", async () => {
    const { repo, pull, head } = await repoWithPull(double);
    const base = await repo.commit("main", { "other.txt": "o\n" }, "Base moves");
    const sha = await forgeFor(double).updatePullRequestWithBase(repo.fullName, pull.number, "merge");
    const c = await readCommit(repo.git, sha);
    expect(c.parents).toEqual([head, base]);
    expect(c.title).toBe("Merge branch 'main' into feature");
    expect(await readRef(repo.git, "refs/heads/feature")).toBe(sha);
  });

  it("rebases a same-repository head commit by commit, keeping authors and dropping emptied commits", async () => {
    const { repo, pull, head } = await repoWithPull(double);
    const dana = { name: "Dana Dev", email: "dana@example.com" };
    await repo.commit("feature", { "extra.txt": "e\n" }, "Add extra", { author: dana });
    await repo.commit("feature", { "same.txt": "s\n" }, "Add same");
    const base = await repo.commit("main", { "other.txt": "o\n", "same.txt": "s\n" }, "Base moves");
    const sha = await forgeFor(double).updatePullRequestWithBase(repo.fullName, pull.number, "rebase");

    const replayed = await commitsBetween(repo.git, base, sha);
    expect(replayed.map((c) => [c.title, c.authorIdentity.name])).toEqual([
      ["Change two", "Yardmaster"],
      ["Add extra", "Dana Dev"],
    ]);
    expect(replayed[0].parents).toEqual([base]);
    expect(await readFile(repo.git, sha, "app.txt")).toBe("one\n2\nthree\n");
    expect(await readFile(repo.git, sha, "other.txt")).toBe("o\n");
    expect(await readRef(repo.git, "refs/heads/feature")).toBe(sha);
    expect(sha).not.toBe(head);
    expect(await readRef(repo.git, `refs/heads/yardmaster/tmp-rebase-${pull.number}`)).toBeNull();
  });

  it("reports a conflict naming the pull request when the base does not apply", async () => {
    const { repo, pull } = await repoWithPull(double);
    await repo.commit("main", { "app.txt": "one\nTWO\nthree\n" }, "Clash");
    for (const method of ["merge", "rebase"] as const) {
      const err = await forgeFor(double)
        .updatePullRequestWithBase(repo.fullName, pull.number, method)
        .catch((e) => e);
      expect(isMergeConflict(err) && err.pullRequest).toBe(pull.number);
    }
  });

  it("waits for GitHub's background update of a fork's head, and refuses to rebase a fork", async () => {
    const { repo, pull, head } = await repoWithPull(double, { pull: { fork: "someone/fork" } });
    await repo.commit("main", { "other.txt": "o\n" }, "Base moves");
    const waits: number[] = [];
    const forge = forgeFor(double, { wait: async (ms) => void waits.push(ms) });
    const sha = await forge.updatePullRequestWithBase(repo.fullName, pull.number, "merge");
    expect(sha).not.toBe(head);
    expect((await readCommit(repo.git, sha)).parents[0]).toBe(head);
    expect(waits.length).toBe(3);
    expect(double.calls("pulls/update-branch").map((r) => r.body)).toEqual([{ expected_head_sha: head }]);
    const err = await forge.updatePullRequestWithBase(repo.fullName, pull.number, "rebase").catch((e) => e);
    expect(isForgeError(err, "invalid")).toBe(true);
  });
});

describe("mergePullRequest", () => {
  it.each<[MergeMethod, number]>([
    ["merge", 2],
    ["squash", 1],
    ["rebase", 1],
    ["fast-forward", 1],
  ])("merges with %s and returns the new base tip", async (method, parents) => {
    const { repo, pull, head } = await repoWithPull(double);
    const forge = forgeFor(double);
    const tip = await forge.mergePullRequest(repo.fullName, pull.number, {
      method,
      expectedHeadSha: head,
      commitTitle: method === "fast-forward" ? undefined : "Land it (#1)",
    });
    expect(await readRef(repo.git, "refs/heads/main")).toBe(tip);
    expect((await readCommit(repo.git, tip)).parents).toHaveLength(parents);
    expect(await readFile(repo.git, tip, "app.txt")).toBe("one\n2\nthree\n");
    expect(repo.pull(pull.number)!.mergedAt).not.toBeNull();
    if (method === "fast-forward") expect(tip).toBe(head);
    else
      expect(double.calls("pulls/merge").at(-1)!.body).toMatchObject({
        merge_method: method,
        sha: head,
        commit_title: "Land it (#1)",
      });
  });

  it("refuses with conflict when the head moved after the checks, or the merge does not apply", async () => {
    const { repo, pull, head } = await repoWithPull(double);
    await repo.commit("feature", { "late.txt": "late\n" }, "Late push");
    const forge = forgeFor(double);
    for (const method of ["squash", "fast-forward"] as const) {
      const moved = await forge
        .mergePullRequest(repo.fullName, pull.number, { method, expectedHeadSha: head })
        .catch((e) => e);
      expect(isForgeError(moved, "conflict")).toBe(true);
    }
    const current = (await readRef(repo.git, "refs/heads/feature"))!;
    await repo.commit("main", { "app.txt": "one\nTWO\nthree\n" }, "Clash");
    const clash = await forge
      .mergePullRequest(repo.fullName, pull.number, { method: "merge", expectedHeadSha: current })
      .catch((e) => e);
    expect(isForgeError(clash, "conflict")).toBe(true);
    const notFf = await forge
      .mergePullRequest(repo.fullName, pull.number, { method: "fast-forward", expectedHeadSha: current })
      .catch((e) => e);
    expect(isForgeError(notFf, "conflict")).toBe(true);
    expect(repo.pull(pull.number)!.state).toBe("open");
  });
});

describe("check runs, comments, labels, permissions", () => {
  it("creates Yardmaster's check run once and updates it by name and head SHA", async () => {
    const { repo, head } = await repoWithPull(double);
    const forge = forgeFor(double);
    const name = "Queue: Embarked in merge queue";
    await forge.upsertCheckRun(repo.fullName, {
      name,
      headSha: head,
      status: "in_progress",
      conclusion: null,
      title: "Waiting",
      summary: "in queue",
    });
    await forge.upsertCheckRun(repo.fullName, {
      name,
      headSha: head,
      status: "completed",
      conclusion: "error",
      title: "Failed",
      summary: "x".repeat(70_000),
    });
    expect(repo.checkRuns).toHaveLength(1);
    expect(repo.checkRuns[0]).toMatchObject({ name, status: "completed", conclusion: "failure", title: "Failed" });
    expect(repo.checkRuns[0].summary!.length).toBe(65_535);
    expect(double.calls("checks/list-for-ref").at(-1)!.query).toMatchObject({
      check_name: name,
      app_id: String(double.appId),
    });
    const err = await forge
      .upsertCheckRun(repo.fullName, {
        name,
        headSha: head,
        status: "completed",
        conclusion: null,
        title: "",
        summary: "",
      })
      .catch((e) => e);
    expect(isForgeError(err, "invalid")).toBe(true);
  });

  it("creates a first post without looking up the run, and updates it by the id the create gave", async () => {
    const { repo, head } = await repoWithPull(double);
    const forge = forgeFor(double);
    const post = { name: "Yardmaster", headSha: head, conclusion: null, title: "Queued", summary: "in queue" };
    const lookups = () => double.calls("checks/list-for-ref").length;
    const [looked, created] = [lookups(), double.calls("checks/create").length];
    await forge.upsertCheckRun(repo.fullName, { ...post, status: "in_progress", fresh: true });
    await forge.upsertCheckRun(repo.fullName, { ...post, status: "completed", conclusion: "success", title: "Merged" });
    expect(lookups() - looked).toBe(0);
    expect(double.calls("checks/create").length - created).toBe(1);
    expect(repo.checkRuns).toHaveLength(1);
    expect(repo.checkRuns[0]).toMatchObject({ name: "Yardmaster", status: "completed", conclusion: "success" });
    // Without `fresh` (a replay, another process) the run is looked up, and found.
    await forgeFor(double).upsertCheckRun(repo.fullName, { ...post, status: "in_progress" });
    expect(lookups() - looked).toBe(1);
    expect(repo.checkRuns).toHaveLength(1);
  });

  it("comments, adds and removes labels (an absent label is fine)", async () => {
    const { repo, pull } = await repoWithPull(double);
    const forge = forgeFor(double);
    const id = await forge.comment(repo.fullName, pull.number, "Queued at position 1");
    const author = "yardmaster-test[bot]";
    expect(repo.comments).toEqual([{ id, number: pull.number, body: "Queued at position 1", author }]);
    await forge.addLabels(repo.fullName, pull.number, ["queued", "batch"]);
    await forge.removeLabels(repo.fullName, pull.number, ["queued", "never-there"]);
    expect(repo.pull(pull.number)!.labels.map((l) => l.name)).toEqual(["batch"]);
  });

  it.each([
    [{ role_name: "maintain", permission: "write" }, "maintain"],
    [{ role_name: "triage", permission: "read" }, "triage"],
    [{ role_name: "security-reviewer", permission: "write" }, "write"],
    [null, "none"],
  ] as const)("reads permission %j as %s", async (collaborator, expected) => {
    const { repo } = await repoWithPull(double);
    if (collaborator) repo.collaborators.set("frank", { ...collaborator });
    expect(await forgeFor(double).getPermission(repo.fullName, "frank")).toBe(expected);
  });
});
