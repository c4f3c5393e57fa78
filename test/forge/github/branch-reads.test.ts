/**
 * The reads a base branch's kept facts share (services/forge/github/branch-reads.ts; docs/github.md
 * "Request budget"): the branch protection (the conditions it injects), the landing rules and the
 * default branch come from one read each of the repository, the classic protection and the rules
 * within the kept time; a change is seen once that time is over, and a refused landing reads the
 * rules again at once.
 */
import { describe, expect, it } from "vitest";
import { BRANCH_READS_TTL_MS } from "../../../services/forge/github/branch-reads.js";
import { readRef } from "../../../services/forge/local/git/index.js";
import { useGithubDouble, type GithubDouble } from "./support/github-double.js";
import { forgeFor, repoWithPulls } from "./support/scenarios.js";

let double: GithubDouble;
useGithubDouble((d) => (double = d));

const reads = (route: string) => double.traffic.tally().find((r) => r.route === route)?.requests ?? 0;

describe("the reads a base branch's kept facts share", () => {
  it("reads the repository, the protection and the rules once for the conditions, the default branch and a landing", async () => {
    const { repo, pulls } = await repoWithPulls(double, 1);
    repo.rules.set("main", [
      {
        type: "required_status_checks",
        parameters: { required_status_checks: [{ context: "build" }], strict_required_status_checks_policy: false },
      },
    ]);
    let now = double.clock.getTime();
    const forge = forgeFor(double, { now: () => now });
    double.traffic.resetCounts();
    expect((await forge.getBranchProtection(repo.fullName, "main")).requiredChecks).toEqual(["build"]);
    expect(await forge.getDefaultBranch(repo.fullName)).toBe("main");
    const base = (await readRef(repo.git, "refs/heads/main"))!;
    repo.rules.set("main", []);
    const out = await forge.mergePullRequests(repo.fullName, {
      base: "main",
      expectedBaseSha: base,
      method: null,
      pulls,
    });
    expect(out.newBaseSha).toBe(await readRef(repo.git, "refs/heads/main"));
    expect([reads("repos/get"), reads("repos/get-branch-protection"), reads("repos/get-branch-rules")]).toEqual([
      1, 1, 1,
    ]);
    // Within the kept time the change of the rules is not seen; past it, it is (one read of each).
    now += BRANCH_READS_TTL_MS - 1;
    expect((await forge.getBranchProtection(repo.fullName, "main")).requiredChecks).toEqual(["build"]);
    now += 1;
    const after = await forge.getBranchProtection(repo.fullName, "main");
    expect(after.requiredChecks).toEqual([]);
    expect(await forge.getDefaultBranch(repo.fullName)).toBe("main");
    expect([reads("repos/get"), reads("repos/get-branch-protection"), reads("repos/get-branch-rules")]).toEqual([
      2, 2, 2,
    ]);
  });

  it("takes the repository's node id, for refs written in one mutation, from the default branch's read", async () => {
    const { repo } = await repoWithPulls(double, 0);
    const forge = forgeFor(double);
    double.traffic.resetCounts();
    expect(await forge.getDefaultBranch(repo.fullName)).toBe("main");
    const sha = await repo.commit("yardmaster/merge-queue/main/batch-1", { "a.txt": "a\n" }, "A");
    const refs = ["refs/notes/yardmaster/batch-1"];
    await forge.addNotes!(repo.fullName, { refs, sha, text: "---\nchecking_base_sha: abc\n" });
    expect(reads("graphql UpdateRefs")).toBe(1);
    expect(reads("repos/get")).toBe(1);
  });
});
