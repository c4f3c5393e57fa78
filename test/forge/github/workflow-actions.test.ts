/**
 * The actions of pull request rules through the GitHub adapter (WorkflowActionsPort), against the
 * double that checks every request and answer against @octokit/openapi: assignees, review
 * requests, reviews and dismissals, squash, cherry-pick (clean, conflicting, and committed with
 * conflict markers), pull request
 * creation, workflow dispatch (docs/workflow-automation.md, docs/github.md "Operations").
 */
import { describe, expect, it } from "vitest";
import { readCommit, readFile } from "../../../services/forge/local/git/index.js";
import { isForgeError } from "../../../services/forge/types.js";
import { useGithubDouble, type GithubDouble } from "./support/github-double.js";
import { forgeFor, repoWithPull } from "./support/scenarios.js";

let double: GithubDouble;
useGithubDouble((d) => (double = d));

describe("people on a pull request", () => {
  it("adds and removes assignees, requests reviews from users and teams", async () => {
    const { repo, pull } = await repoWithPull(double);
    const forge = forgeFor(double);
    await forge.setAssignees(repo.fullName, pull.number, { add: ["bob", "carol"], remove: [] });
    await forge.setAssignees(repo.fullName, pull.number, { add: [], remove: ["bob"] });
    expect(pull.assignees).toEqual(["carol"]);
    await forge.requestReviews(repo.fullName, pull.number, { users: ["dave"], teams: ["acme/devs"] });
    expect(pull.requestedReviewers).toEqual(["dave"]);
    expect(pull.requestedTeams).toEqual(["devs"]);
    const refused = await forge
      .requestReviews(repo.fullName, pull.number, { users: [pull.author.login], teams: [] })
      .catch((e) => e);
    expect(isForgeError(refused, "invalid")).toBe(true);
  });

  it("submits a review as the App and dismisses approvals, naming whose", async () => {
    const { repo, pull } = await repoWithPull(double);
    const forge = forgeFor(double);
    repo.reviews.set(pull.number, [{ id: 900, user: "bob", state: "CHANGES_REQUESTED", submittedAt: new Date() }]);
    await forge.submitReview(repo.fullName, pull.number, { event: "APPROVE", body: "" });
    const users = await forge.dismissReviews(repo.fullName, pull.number, { states: ["APPROVED"], message: "moved" });
    expect(users).toEqual([`${double.appSlug}[bot]`]);
    expect(repo.reviews.get(pull.number)!.map((r) => r.state)).toEqual(["CHANGES_REQUESTED", "DISMISSED"]);
  });
});

describe("git actions", () => {
  it("squashes the head into one commit on the merge base, keeping its tree", async () => {
    const { repo, pull, head } = await repoWithPull(double);
    const second = await repo.commit("feature", { "more.txt": "more\n" }, "More");
    const forge = forgeFor(double);
    const squashed = await forge.squashPullRequest(repo.fullName, pull.number, { message: "Change two (#1)" });
    const commit = await readCommit(repo.git, squashed);
    expect(commit.parents).toEqual((await readCommit(repo.git, head)).parents);
    expect(commit.tree).toBe((await readCommit(repo.git, second)).tree);
    expect(await forge.getBranchSha(repo.fullName, "feature")).toBe(squashed);
  });

  it("cherry-picks commits onto a branch and opens the copy's pull request; a conflict is refused", async () => {
    const { repo, head } = await repoWithPull(double);
    await repo.commit("release", { "other.txt": "x\n" }, "Release only");
    const forge = forgeFor(double);
    const picked = await forge.cherryPick(repo.fullName, {
      commits: [head],
      onto: "release",
      branch: "yardmaster/bp/release/pr-1",
      allowConflicts: true,
    });
    expect(picked.conflicts).toEqual([]);
    expect(await readFile(repo.git, picked.sha, "app.txt")).toBe("one\n2\nthree\n");
    expect(await readFile(repo.git, picked.sha, "other.txt")).toBe("x\n");
    expect((await readCommit(repo.git, picked.sha)).message).toContain(`(cherry picked from commit ${head})`);
    const number = await forge.createPullRequest(repo.fullName, {
      head: "yardmaster/bp/release/pr-1",
      base: "release",
      title: "Change two (backport #1)",
      body: "",
    });
    expect(repo.pull(number)!.base).toBe("release");

    await repo.commit("clash", { "app.txt": "one\nTWO\nthree\n" }, "Clash");
    const err = await forge
      .cherryPick(repo.fullName, { commits: [head], onto: "clash", branch: "bp-clash", allowConflicts: false })
      .catch((e) => e);
    expect(isForgeError(err, "conflict")).toBe(true);
  });

  it("commits a conflicting cherry-pick with conflict markers when allowed, naming the file", async () => {
    const { repo, head } = await repoWithPull(double);
    const notes = await repo.commit("feature", { "notes.txt": "notes\n", "logo.bin": "\u0000new" }, "Notes");
    const clash = await repo.commit("clash", { "app.txt": "one\nTWO\nthree\n", "logo.bin": "\u0000old" }, "Clash");
    const forge = forgeFor(double);
    const input = { commits: [head, notes], onto: "clash", branch: "bp-clash", allowConflicts: true };
    const picked = await forge.cherryPick(repo.fullName, input);
    // A binary file both changed is not merged as text: the target's stays, and it is named.
    expect(picked.conflicts).toEqual(["app.txt", "logo.bin"]);
    expect(await readFile(repo.git, picked.sha, "logo.bin")).toBe("\u0000old");
    expect(await readFile(repo.git, picked.sha, "app.txt")).toBe(
      `one\n<<<<<<< ${clash.slice(0, 12)}\nTWO\n=======\n2\n>>>>>>> ${head.slice(0, 12)}\nthree\n`,
    );
    expect(await readFile(repo.git, picked.sha, "notes.txt")).toBe("notes\n");
    // Both commits picked, in order, on the branch's tip; the branch points at the result.
    const last = await readCommit(repo.git, picked.sha);
    expect(last.message).toContain(`(cherry picked from commit ${notes})`);
    expect((await readCommit(repo.git, last.parents[0]!)).parents).toEqual([clash]);
    expect(await forge.getBranchSha(repo.fullName, "bp-clash")).toBe(picked.sha);
  });

  it("dispatches a workflow with its inputs as texts", async () => {
    const { repo } = await repoWithPull(double);
    await forgeFor(double).dispatchWorkflow(repo.fullName, {
      workflow: "ci.yml",
      ref: "main",
      inputs: { n: 1, ok: true },
    });
    expect(repo.dispatches).toEqual([{ workflow: "ci.yml", ref: "main", inputs: { n: "1", ok: "true" } }]);
  });
});
