/**
 * Merging a tested batch (ForgePort.mergePullRequests) and reading branch protection
 * (ForgePort.getBranchProtection) through the GitHub adapter, against the OpenAPI-checked double.
 */
import { describe, expect, it } from "vitest";
import { isMergeConflict, readCommit, readFile, readRef } from "../../../services/forge/local/git/index.js";
import { isForgeError, type MergeMethod } from "../../../services/forge/types.js";
import { useGithubDouble, type GithubDouble } from "./support/github-double.js";
import { forgeFor, repoWithPulls } from "./support/scenarios.js";

let double: GithubDouble;
useGithubDouble((d) => (double = d));

describe("mergePullRequests", () => {
  it.each<MergeMethod>(["merge", "squash", "rebase"])(
    "merges the batch one pull request at a time with %s",
    async (method) => {
      const { repo, pulls } = await repoWithPulls(double, 2);
      const forge = forgeFor(double);
      const base = (await readRef(repo.git, "refs/heads/main"))!;
      const out = await forge.mergePullRequests(repo.fullName, { base: "main", expectedBaseSha: base, method, pulls });
      expect(await readRef(repo.git, "refs/heads/main")).toBe(out.newBaseSha);
      expect(out.mergeCommits[pulls[1].number]).toBe(out.newBaseSha);
      // One commit on the base per pull request (its merge commit, squash or single rebased commit).
      const firstParents = [];
      for (let sha = out.newBaseSha; sha !== base; sha = (await readCommit(repo.git, sha)).parents[0])
        firstParents.push(sha);
      expect(firstParents).toEqual([out.newBaseSha, out.mergeCommits[pulls[0].number]]);
      for (const f of ["f1.txt", "f2.txt"]) expect(await readFile(repo.git, out.newBaseSha, f)).not.toBeNull();
      expect(pulls.map((p) => repo.pull(p.number)!.state)).toEqual(["closed", "closed"]);
    },
  );

  it("lands merge-batch by merging the batch's draft pull request: one merge commit, every pull request merged", async () => {
    const { repo, pulls } = await repoWithPulls(double, 2);
    const forge = forgeFor(double);
    const base = (await readRef(repo.git, "refs/heads/main"))!;
    const branch = "yardmaster/merge-queue/batch";
    const checkSha = await forge.createSpeculativeBranch(repo.fullName, branch, base, pulls);
    const draft = await forge.openDraftPullRequest(repo.fullName, { head: branch, base: "main", title: "b", body: "" });
    const out = await forge.mergePullRequests(repo.fullName, {
      base: "main",
      expectedBaseSha: base,
      method: "merge-batch",
      pulls,
      checkSha,
      checkPullRequest: draft,
    });
    const commit = await readCommit(repo.git, out.newBaseSha);
    expect(commit.parents).toEqual([base, checkSha]);
    expect(commit.title).toBe(`Merge queue: #${pulls[0].number}, #${pulls[1].number} (#${draft})`);
    expect(out.mergeCommits).toEqual({ [pulls[0].number]: out.newBaseSha, [pulls[1].number]: out.newBaseSha });
    // Through a pull request, never a direct write to the base; GitHub marks the batch's pull requests merged.
    expect(double.calls("repos/merge").filter((r) => (r.body as { base: string }).base === "main")).toEqual([]);
    expect(pulls.map((p) => repo.pull(p.number)!.mergedAt !== null)).toEqual([true, true]);
  });

  it("refuses when the base moved, before merging anything", async () => {
    const { repo, pulls } = await repoWithPulls(double, 2);
    const base = (await readRef(repo.git, "refs/heads/main"))!;
    await repo.commit("main", { "hotfix.txt": "h\n" }, "Hotfix");
    const err = await forgeFor(double)
      .mergePullRequests(repo.fullName, { base: "main", expectedBaseSha: base, method: "squash", pulls })
      .catch((e) => e);
    expect(isForgeError(err, "conflict")).toBe(true);
    expect(pulls.map((p) => repo.pull(p.number)!.state)).toEqual(["open", "open"]);
  });

  it("names the pull request that does not apply and the ones merged before it", async () => {
    const { repo, pulls } = await repoWithPulls(double, 1);
    const clash = await repo.commit("clash", { "f1.txt": "other\n" }, "Clash");
    const second = await repo.openPull({ head: "clash" });
    const base = (await readRef(repo.git, "refs/heads/main"))!;
    const err = await forgeFor(double)
      .mergePullRequests(repo.fullName, {
        base: "main",
        expectedBaseSha: base,
        method: "merge",
        pulls: [...pulls, { number: second.number, headSha: clash }],
      })
      .catch((e) => e);
    expect(isMergeConflict(err) && err.pullRequest).toBe(second.number);
    expect(err.message).toContain(`already merged before it: #${pulls[0].number}`);
  });

  it("refuses an empty batch and merge-batch without the check SHA", async () => {
    const { repo, pulls } = await repoWithPulls(double, 1);
    const base = (await readRef(repo.git, "refs/heads/main"))!;
    const forge = forgeFor(double);
    expect(
      isForgeError(
        await forge
          .mergePullRequests(repo.fullName, { base: "main", expectedBaseSha: base, method: "merge", pulls: [] })
          .catch((e) => e),
        "invalid",
      ),
    ).toBe(true);
    expect(
      isForgeError(
        await forge
          .mergePullRequests(repo.fullName, { base: "main", expectedBaseSha: base, method: "merge-batch", pulls })
          .catch((e) => e),
        "invalid",
      ),
    ).toBe(true);
  });
});

describe("getBranchProtection", () => {
  it("combines classic protection and rulesets", async () => {
    const { repo } = await repoWithPulls(double, 0);
    repo.protection.set("main", { contexts: ["ci/legacy"], checks: ["test"], approvals: 1, conversation: false });
    repo.rules.set("main", [
      {
        type: "required_status_checks",
        parameters: {
          required_status_checks: [{ context: "test" }, { context: "lint" }],
          strict_required_status_checks_policy: false,
        },
      },
      {
        type: "pull_request",
        parameters: {
          required_approving_review_count: 2,
          required_review_thread_resolution: true,
          dismiss_stale_reviews_on_push: false,
          require_code_owner_review: false,
          require_last_push_approval: false,
        },
      },
      { type: "non_fast_forward" },
    ]);
    expect(await forgeFor(double).getBranchProtection(repo.fullName, "main")).toEqual({
      requiredChecks: ["ci/legacy", "test", "lint"],
      requiredApprovals: 2,
      requireConversationResolution: true,
    });
  });

  it("reads nothing from an unprotected branch, or protection the App may not read", async () => {
    const { repo } = await repoWithPulls(double, 0);
    const forge = forgeFor(double);
    expect(await forge.getBranchProtection(repo.fullName, "main")).toEqual({
      requiredChecks: [],
      requiredApprovals: 0,
      requireConversationResolution: false,
    });
    repo.protection.set("main", "forbidden");
    repo.rules.set("main", [
      {
        type: "required_status_checks",
        parameters: { required_status_checks: [{ context: "build" }], strict_required_status_checks_policy: true },
      },
    ]);
    // The adapter keeps a branch's protection for PROTECTION_TTL_MS: the same adapter still
    // answers what it read, a new one reads the rulesets.
    expect((await forge.getBranchProtection(repo.fullName, "main")).requiredChecks).toEqual([]);
    expect(await forgeFor(double).getBranchProtection(repo.fullName, "main")).toEqual({
      requiredChecks: ["build"],
      requiredApprovals: 0,
      requireConversationResolution: false,
    });
  });
});
