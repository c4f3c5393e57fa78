/**
 * Reading pull requests through the GitHub adapter (ForgePort.getPullRequest,
 * listOpenPullRequests): every attribute the conditions language reads comes from GitHub's
 * answers, checked against GitHub's OpenAPI description by the double.
 */
import { describe, expect, it } from "vitest";
import { isForgeError } from "../../../services/forge/types.js";
import { useGithubDouble, type GithubDouble } from "./support/github-double.js";
import { forgeFor, freshRepoName, repoWithPull } from "./support/scenarios.js";

let double: GithubDouble;
useGithubDouble((d) => (double = d));

describe("getPullRequest", () => {
  it("fills every attribute from GitHub", async () => {
    const { repo, pull, head } = await repoWithPull(double, {
      files: { "old-name.txt": "stays\n", "gone.txt": "bye\n" },
      pull: {
        body: "Fixes things <!-- hidden -->",
        labels: [
          { id: 11, name: "queue", color: "0e8a16", default: false },
          { id: 12, name: "bug", color: "d73a4a", default: true },
        ],
        assignees: ["alice"],
        requestedReviewers: ["bob"],
        requestedTeams: ["backend"],
        milestone: "v1.0",
        locked: true,
        author: { login: "carol", id: 42 },
      },
    });
    const second = await repo.commit(
      "feature",
      { "new-name.txt": "stays\n", "old-name.txt": null, "gone.txt": null, "added.txt": "new\n" },
      "Rename and add [signed]",
      {
        author: { name: "Dana Dev", email: "dana@example.com" },
      },
    );
    const behind = await repo.commit("main", { "base.txt": "base moved\n" }, "Base moves");
    repo.reviews.set(pull.number, [
      { id: 1, user: "bob", state: "CHANGES_REQUESTED", submittedAt: new Date("2026-03-01T09:00:00Z") },
      { id: 2, user: "bob", state: "APPROVED", submittedAt: new Date("2026-03-01T10:00:00Z") },
      { id: 3, user: "eve", state: "PENDING", submittedAt: null },
    ]);
    repo.threads.set(pull.number, [
      { isResolved: true, body: "typo here" },
      { isResolved: false, body: "why this?" },
    ]);
    repo.checkRuns.push(
      {
        id: 501,
        name: "test",
        headSha: second,
        status: "completed",
        conclusion: "success",
        title: "All green",
        summary: "",
        appId: 15368,
        appSlug: "github-actions",
        detailsUrl: "https://ci.example/1",
        startedAt: new Date("2026-03-01T09:00:00Z"),
        completedAt: new Date("2026-03-01T09:05:00Z"),
      },
      {
        id: 502,
        name: "lint",
        headSha: second,
        status: "in_progress",
        conclusion: null,
        title: null,
        summary: null,
        appId: 15368,
        appSlug: "github-actions",
        detailsUrl: null,
        startedAt: new Date("2026-03-01T09:00:00Z"),
        completedAt: null,
      },
      {
        id: 503,
        name: "Queue: Embarked in merge queue",
        headSha: second,
        status: "completed",
        conclusion: "neutral",
        title: "queued",
        summary: "",
        appId: double.appId,
        appSlug: double.appSlug,
        detailsUrl: null,
        startedAt: null,
        completedAt: null,
      },
      {
        id: 504,
        name: "old",
        headSha: head,
        status: "completed",
        conclusion: "failure",
        title: null,
        summary: null,
        appId: 1,
        appSlug: "x",
        detailsUrl: null,
        startedAt: null,
        completedAt: null,
      },
    );
    repo.statuses.push(
      {
        id: 601,
        sha: second,
        context: "ci/legacy",
        state: "pending",
        description: "waiting",
        targetUrl: null,
        at: new Date("2026-03-01T08:00:00Z"),
      },
      {
        id: 602,
        sha: second,
        context: "ci/legacy",
        state: "error",
        description: "broke",
        targetUrl: "https://ci.example/2",
        at: new Date("2026-03-01T08:30:00Z"),
      },
    );

    const snap = await forgeFor(double).getPullRequest(repo.fullName, pull.number);

    expect(snap).toMatchObject({
      repository: repo.fullName,
      number: pull.number,
      title: "Change two",
      body: "Fixes things <!-- hidden -->",
      url: `https://github.com/${repo.fullName}/pull/${pull.number}`,
      author: { id: 42, login: "carol" },
      base: "main",
      head: "feature",
      headSha: second,
      baseSha: behind,
      headRepoFullName: repo.fullName,
      draft: false,
      state: "open",
      locked: true,
      conflict: false,
      commitsBehind: 1,
      labels: [
        { id: 11, name: "queue", color: "0e8a16", default: false },
        { id: 12, name: "bug", color: "d73a4a", default: true },
      ],
      assignees: ["alice"],
      requestedReviewers: ["bob"],
      requestedTeams: ["backend"],
      milestone: "v1.0",
      mergedBy: null,
      mergeCommitSha: null,
      closedAt: null,
      mergedAt: null,
      fromFork: false,
      reviewThreadsResolved: ["typo here"],
      reviewThreadsUnresolved: ["why this?"],
    });
    expect(snap.reviews).toEqual([
      { author: "bob", state: "CHANGES_REQUESTED", submittedAt: new Date("2026-03-01T09:00:00Z") },
      { author: "bob", state: "APPROVED", submittedAt: new Date("2026-03-01T10:00:00Z") },
    ]);
    expect(snap.checks).toEqual([
      {
        name: "test",
        state: "success",
        description: "All green",
        detailsUrl: "https://ci.example/1",
        app: "github-actions",
        startedAt: new Date("2026-03-01T09:00:00Z"),
        completedAt: new Date("2026-03-01T09:05:00Z"),
      },
      expect.objectContaining({ name: "lint", state: "pending", app: "github-actions", completedAt: null }),
      expect.objectContaining({ name: "Queue: Embarked in merge queue", state: "neutral", app: "yardmaster" }),
      {
        name: "ci/legacy",
        state: "error",
        description: "broke",
        detailsUrl: "https://ci.example/2",
        app: "",
        startedAt: new Date("2026-03-01T08:30:00Z"),
        completedAt: new Date("2026-03-01T08:30:00Z"),
      },
    ]);
    expect([...snap.files].sort()).toEqual(["added.txt", "app.txt", "gone.txt", "new-name.txt", "old-name.txt"]);
    expect(snap.addedFiles.sort()).toEqual(["added.txt", "new-name.txt"]);
    expect(snap.removedFiles.sort()).toEqual(["gone.txt", "old-name.txt"]);
    expect(snap.modifiedFiles).toEqual(["app.txt"]);
    expect(snap.addedLines).toBe(2);
    expect(snap.deletedLines).toBe(2);
    expect(
      snap.commits.map((c) => ({
        sha: c.sha,
        title: c.title,
        author: c.author,
        verified: c.verified,
        parents: c.parents.length,
      })),
    ).toEqual([
      { sha: head, title: "Change two", author: "Yardmaster", verified: false, parents: 1 },
      { sha: second, title: "Rename and add [signed]", author: "Dana Dev", verified: true, parents: 1 },
    ]);
    expect(snap.commits[0].message).toBe("Change two\n\nLonger explanation.");
  });

  it("reports a conflict when GitHub says the head does not merge, and none while GitHub is computing", async () => {
    const { repo, pull } = await repoWithPull(double);
    await repo.commit("main", { "app.txt": "one\nTWO\nthree\n" }, "Conflicting change");
    const forge = forgeFor(double);
    expect((await forge.getPullRequest(repo.fullName, pull.number)).conflict).toBe(true);
    pull.mergeable = null;
    expect((await forge.getPullRequest(repo.fullName, pull.number)).conflict).toBe(false);
  });

  it("reads a merged pull request with its merge commit and a fork's head repository", async () => {
    const { repo, pull } = await repoWithPull(double, { pull: { fork: "someone/fork-of-it" } });
    const forge = forgeFor(double);
    const open = await forge.getPullRequest(repo.fullName, pull.number);
    expect(open).toMatchObject({ fromFork: true, headRepoFullName: "someone/fork-of-it" });
    const tip = await forge.mergePullRequest(repo.fullName, pull.number, {
      method: "squash",
      expectedHeadSha: open.headSha,
    });
    const merged = await forge.getPullRequest(repo.fullName, pull.number);
    expect(merged).toMatchObject({
      state: "merged",
      mergeCommitSha: tip,
      mergedBy: `${double.appSlug}[bot]`,
      conflict: false,
    });
    expect(merged.mergedAt).toEqual(double.now());
  });

  it("reads a pull request in one query, the label ids from the repository's list kept until a name it lacks", async () => {
    const { repo, pull } = await repoWithPull(double, {
      pull: { labels: [{ id: 21, name: "queue", color: "0e8a16", default: false }] },
    });
    const forge = forgeFor(double);
    const routes = [
      "graphql PullSnapshot",
      "pulls/get",
      "issues/list-labels-for-repo",
      "repos/compare-commits-with-basehead",
    ];
    const count = () => routes.map((r) => double.calls(r).length);
    const before = count();
    const first = await forge.getPullRequest(repo.fullName, pull.number);
    const again = await forge.getPullRequest(repo.fullName, pull.number);
    expect(again).toEqual(first);
    // Two reads: two queries, one label list, no REST pull request and no REST comparison.
    expect(count().map((n, i) => n - before[i])).toEqual([2, 0, 1, 0]);
    await forge.addLabels(repo.fullName, pull.number, ["ready"]);
    const labelled = await forge.getPullRequest(repo.fullName, pull.number);
    const ready = repo.pull(pull.number)!.labels.find((l) => l.name === "ready")!;
    expect(labelled.labels.map((l) => [l.id, l.name])).toEqual([
      [21, "queue"],
      [ready.id, "ready"],
    ]);
    // The label the App added: its id learnt from GitHub's answer, the list not read again.
    expect(count().map((n, i) => n - before[i])).toEqual([3, 0, 1, 0]);
    // A label someone else added (a name the kept list lacks) reads the list again.
    repo.pull(pull.number)!.labels.push({ id: 77, name: "by-hand", color: "ededed", default: false });
    const byHand = await forge.getPullRequest(repo.fullName, pull.number);
    expect(byHand.labels.find((l) => l.name === "by-hand")?.id).toBe(77);
    expect(count().map((n, i) => n - before[i])).toEqual([4, 0, 2, 0]);
  });

  it("is not_found for a pull request that does not exist", async () => {
    const { repo } = await repoWithPull(double);
    const err = await forgeFor(double)
      .getPullRequest(repo.fullName, 999)
      .catch((e) => e);
    expect(isForgeError(err, "not_found")).toBe(true);
  });
});

describe("listOpenPullRequests", () => {
  it("lists open pull requests oldest first, each read in full", async () => {
    const repo = await double.addRepo(freshRepoName());
    for (const name of ["a", "b", "c"]) {
      await repo.commit(name, { [`${name}.txt`]: name }, `Add ${name}`);
      double.clock = new Date(double.clock.getTime() + 60_000);
      await repo.openPull({ head: name, title: `Add ${name}` });
    }
    repo.pulls.get(2)!.state = "closed";
    const list = await forgeFor(double).listOpenPullRequests(repo.fullName);
    expect(list.map((p) => [p.number, p.title, p.files])).toEqual([
      [1, "Add a", ["a.txt"]],
      [3, "Add c", ["c.txt"]],
    ]);
  });

  it("reads in full only the open pull requests at a head SHA, or into a base, when asked", async () => {
    const repo = await double.addRepo(freshRepoName());
    const heads: string[] = [];
    for (const name of ["a", "b", "c"]) heads.push(await repo.commit(name, { [`${name}.txt`]: name }, `Add ${name}`));
    await repo.commit("release", { "r.txt": "r" }, "Release");
    await repo.openPull({ head: "a", title: "Add a" });
    await repo.openPull({ head: "b", title: "Add b" });
    await repo.openPull({ head: "c", title: "Add c", base: "release" });
    const forge = forgeFor(double);
    const before = double.calls("graphql PullSnapshot").length;
    const atB = await forge.listOpenPullRequests(repo.fullName, { headSha: heads[1]! });
    expect(atB.map((p) => p.number)).toEqual([2]);
    const intoRelease = await forge.listOpenPullRequests(repo.fullName, { base: "release" });
    expect(intoRelease.map((p) => p.number)).toEqual([3]);
    // Two snapshots built, not six: a check event on one commit costs one pull request's reads.
    expect(double.calls("graphql PullSnapshot").length - before).toBe(2);
  });

  it("finds one by its branches without reading any in full", async () => {
    const repo = await double.addRepo(freshRepoName());
    await repo.commit("a", { "a.txt": "a" }, "Add a");
    await repo.commit("b", { "b.txt": "b" }, "Add b");
    await repo.openPull({ head: "a", title: "Add a" });
    await repo.openPull({ head: "b", title: "Add b" });
    const forge = forgeFor(double);
    expect(await forge.findOpenPullRequest(repo.fullName, "b", "main")).toBe(2);
    expect(await forge.findOpenPullRequest(repo.fullName, "b", "release")).toBeNull();
    repo.pulls.get(2)!.state = "closed";
    expect(await forge.findOpenPullRequest(repo.fullName, "b", "main")).toBeNull();
  });

  it("is not_found when the App is not installed on the repository", async () => {
    const err = await forgeFor(double)
      .listOpenPullRequests(freshRepoName("nowhere"))
      .catch((e) => e);
    expect(isForgeError(err, "not_found")).toBe(true);
    expect(err.message).toMatch(/not installed/);
  });
});
