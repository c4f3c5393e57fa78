/**
 * The GitHub adapter against real GitHub answers: the `@octokit/fixtures` recordings for the
 * calls it makes where one exists (labels, branch protection, refs, commit statuses), served in
 * place of the double (support/recordings.ts). Each test asserts that the adapter sends the
 * request the recording shows (method, path, body fields and their types, and GitHub's OpenAPI
 * description) and reads the recorded answer as it should (docs/github.md "Operations").
 * Calls without a recording (removing a label, reading one ref, the rulesets) go to the double.
 *
 * The `edit` action's draft switch goes through GraphQL (REST has none): the mutations are
 * validated against GitHub's public GraphQL schema (`@octokit/graphql-schema`), and the adapter's
 * handling of GitHub's error answers is asserted.
 */
import { validate } from "@octokit/graphql-schema";
import { afterEach, describe, expect, it } from "vitest";
import { PULL_SNAPSHOT_QUERY } from "../../../services/forge/github/pull-graphql.js";
import { UPDATE_REFS_MUTATION } from "../../../services/forge/github/ref-updates.js";
import { COMMIT_CHECKS_QUERY, RECONCILE_QUERY } from "../../../services/forge/github/reconcile-reads.js";
import { REVIEW_THREADS_QUERY } from "../../../services/forge/github/review-threads.js";
import { isForgeError } from "../../../services/forge/types.js";
import { useGithubDouble, type GithubDouble } from "./support/github-double.js";
import { RecordedGithub, recorded, type Recording } from "./support/recordings.js";
import { forgeFor } from "./support/scenarios.js";

let double: GithubDouble;
useGithubDouble((d) => (double = d));

let github: RecordedGithub | undefined;
afterEach(() => {
  if (!github) return;
  expect(github.problems).toEqual([]);
  expect(github.unused()).toEqual([]);
  github = undefined;
});

/** The adapter with `recordings` answering in place of the double (repository `octokit-fixture-org/<name>`). */
async function withRecordings(
  name: string,
  recordings: ConstructorParameters<typeof RecordedGithub>[1],
  gql: unknown[] = [],
) {
  const repo = double.repo("octokit-fixture-org", name) ?? (await double.addRepo(`octokit-fixture-org/${name}`));
  github = new RecordedGithub(double, recordings, gql);
  return { repo, forge: forgeFor(double, { fetch: github.fetch }), github };
}

describe("labels (scenario add-labels-to-issue)", () => {
  it("adds labels with the recorded request and takes GitHub's answer", async () => {
    const rec = recorded("add-labels-to-issue", "post", 1);
    const { forge, github } = await withRecordings("add-labels-to-issue", [rec]);
    await forge.addLabels("octokit-fixture-org/add-labels-to-issue", 1, ["Foo", "bAr", "baZ"]);
    expect(github.served.map((s) => [s.method, s.path, s.body])).toEqual([["post", rec.path, rec.body]]);
  });
});

describe("branch protection (scenario branch-protection)", () => {
  it("an unprotected branch (GitHub's 404 'Branch not protected') requires nothing", async () => {
    const { forge, github } = await withRecordings("branch-protection", [recorded("branch-protection", "get")]);
    expect(await forge.getBranchProtection("octokit-fixture-org/branch-protection", "main")).toEqual({
      requiredChecks: [],
      requiredApprovals: 0,
      requireConversationResolution: false,
    });
    expect(github.served.map((s) => [s.method, s.path])).toEqual([
      ["get", "/repos/octokit-fixture-org/branch-protection/branches/main/protection"],
    ]);
  });

  it("a protected branch: one required check (named in both contexts and checks) and one approval", async () => {
    // GitHub answers the PUT that protected the branch with the protection as it then stands: the
    // same fields its GET answers (checked against the GET's schema by RecordedGithub).
    const put = recorded("branch-protection", "put", 1);
    const asRead: Recording = { ...put, method: "get", body: "" };
    const { forge, github } = await withRecordings("branch-protection", [asRead]);
    expect(put.response.required_status_checks).toMatchObject({
      contexts: ["foo/bar"],
      checks: [{ context: "foo/bar" }],
    });
    expect(await forge.getBranchProtection("octokit-fixture-org/branch-protection", "main")).toEqual({
      requiredChecks: ["foo/bar"],
      requiredApprovals: put.response.required_pull_request_reviews.required_approving_review_count,
      requireConversationResolution: false,
    });
    expect(put.response.required_pull_request_reviews.required_approving_review_count).toBe(1);
    // The recording (2022) predates the description's `type` of a team: drift the adapter never reads.
    expect(github.problems.splice(0)).toEqual([
      "recorded: GET /repos/{owner}/{repo}/branches/{branch}/protection → 200: " +
        "response body: /restrictions/teams/0 must have required property 'type'",
    ]);
  });
});

describe("refs (scenario git-refs)", () => {
  const BRANCH = "test";

  it("creates a branch with POST git/refs as recorded (a backport's branch: cherry-pick of no commits)", async () => {
    const rec = recorded("git-refs", "post");
    const { repo, forge, github } = await withRecordings("git-refs", [rec]);
    const main = await forge.getBranchSha(repo.fullName, "main");
    const picked = await forge.cherryPick(repo.fullName, {
      commits: [],
      onto: "main",
      branch: BRANCH,
      allowConflicts: false,
    });
    expect(picked).toEqual({ sha: main, conflicts: [] });
    expect(github.served.map((s) => [s.method, s.path, s.body])).toEqual([
      ["post", rec.path, { ref: rec.body.ref, sha: main }],
    ]);
  });

  it("fast-forwards with PATCH git/refs/heads/{branch} as recorded, never forced", async () => {
    const rec = recorded("git-refs", "patch");
    const { repo, forge, github } = await withRecordings("git-refs", [rec]);
    await forge.fastForwardBranch(repo.fullName, BRANCH, rec.body.sha);
    expect(github.served.map((s) => [s.method, s.path, s.body])).toEqual([
      ["patch", rec.path, { sha: rec.body.sha, force: false }],
    ]);
  });

  it("deletes a branch with DELETE git/refs/heads/{branch} (GitHub's 204)", async () => {
    const rec = recorded("git-refs", "delete");
    const { repo, forge, github } = await withRecordings("git-refs", [rec]);
    await forge.deleteBranch(repo.fullName, BRANCH);
    expect(github.served.map((s) => [s.method, s.path, s.body])).toEqual([["delete", rec.path, undefined]]);
  });
});

describe("commit statuses (scenario create-status)", () => {
  it("reads a commit's statuses from GitHub's combined status", async () => {
    const rec = recorded("create-status", "get", 1);
    const statusPath = /^\/repos\/octokit-fixture-org\/create-status\/commits\/[0-9a-f]{40}\/status$/;
    // A commit's checks are one GraphQL query; past its first page of check suites they are read
    // with REST, every page: the GraphQL answer here says there is more.
    const morePages = {
      data: { repository: { commit: { checkSuites: { pageInfo: { hasNextPage: true }, nodes: [] } } } },
    };
    const { repo, forge, github } = await withRecordings(
      "create-status",
      [{ recording: rec, path: statusPath }],
      [morePages],
    );
    const head = await repo.commit("feature", { "a.txt": "a\n" }, "Change");
    const checks = await forge.getCommitChecks(repo.fullName, head);
    expect(github.served.map((s) => [s.path, s.query])).toEqual([
      [`/repos/octokit-fixture-org/create-status/commits/${head}/status`, { per_page: "100", page: "1" }],
    ]);
    const statuses = checks.filter((c) => c.app === "");
    expect(statuses.map((c) => [c.name, c.state, c.description, c.detailsUrl, c.completedAt?.toISOString()])).toEqual([
      ["example/1", "failure", "create-status failure test", "https://example.com", "2017-10-10T16:00:00.000Z"],
      ["example/2", "success", "create-status success test", "https://example.com", "2017-10-10T16:00:00.000Z"],
    ]);
  });
});

describe("read queries (GraphQL)", () => {
  // The double answers these queries by name; GitHub's schema says whether GitHub would.
  it.each([
    ["PullSnapshot", PULL_SNAPSHOT_QUERY],
    ["ReviewThreads", REVIEW_THREADS_QUERY],
    ["ReconcileFacts", RECONCILE_QUERY],
    ["CommitChecks", COMMIT_CHECKS_QUERY],
    ["UpdateRefs", UPDATE_REFS_MUTATION],
  ])("%s is valid against GitHub's public schema", (_name, query) => {
    expect(validate(query).map((e) => e.message)).toEqual([]);
  });

  it("a query that asks for a field GitHub does not have is refused by the schema", () => {
    expect(validate(RECONCILE_QUERY.replace("isDraft", "isDrafted")).length).toBeGreaterThan(0);
  });
});

describe("edit: draft and ready for review (GraphQL)", () => {
  const ok = (field: string) => ({ data: { [field]: { clientMutationId: null } } });

  it("sends convertPullRequestToDraft / markPullRequestReadyForReview with the pull request's node id", async () => {
    const { repo, forge, github } = await withRecordings(
      "drafts",
      [],
      [ok("convertPullRequestToDraft"), ok("markPullRequestReadyForReview")],
    );
    await repo.commit("feature", { "a.txt": "a\n" }, "Change");
    const pull = await repo.openPull({ head: "feature", title: "Change" });
    await forge.setDraft(repo.fullName, pull.number, true);
    pull.draft = true;
    await forge.setDraft(repo.fullName, pull.number, false);
    expect(github.graphql.map((g) => [/\{\s*(\w+)\(/.exec(g.query)?.[1], g.variables])).toEqual([
      ["convertPullRequestToDraft", { id: `PR_${repo.id}_${pull.number}` }],
      ["markPullRequestReadyForReview", { id: `PR_${repo.id}_${pull.number}` }],
    ]);
    for (const g of github.graphql) expect(validate(g.query).map((e) => e.message)).toEqual([]);
  });

  it("sends nothing when the pull request already is as asked (a replay)", async () => {
    const { repo, forge, github } = await withRecordings("drafts", [], [ok("unused")]);
    await repo.commit("feature2", { "b.txt": "b\n" }, "Change");
    const pull = await repo.openPull({ head: "feature2", title: "Change", draft: true });
    await forge.setDraft(repo.fullName, pull.number, true);
    expect(github.graphql).toEqual([]);
  });

  it.each([
    ["FORBIDDEN", "Resource not accessible by integration", "permission"],
    ["UNPROCESSABLE", "Draft pull requests are not supported in this repository.", "invalid"],
    ["NOT_FOUND", "Could not resolve to a node with the global id of 'PR_x'", "not_found"],
  ])("GitHub's %s error answer (%s) is a %s refusal naming GitHub's message", async (type, message, kind) => {
    const refusal = {
      data: { convertPullRequestToDraft: null },
      errors: [{ type, path: ["convertPullRequestToDraft"], message }],
    };
    const { repo, forge } = await withRecordings("drafts", [], [refusal]);
    await repo.commit(`f-${type}`, { "c.txt": "c\n" }, "Change");
    const pull = await repo.openPull({ head: `f-${type}`, title: "Change" });
    const error = await forge.setDraft(repo.fullName, pull.number, true).catch((e) => e);
    expect(isForgeError(error, kind as never), String(error)).toBe(true);
    expect(error.message).toContain(message);
  });
});
