/**
 * The double refuses what GitHub refuses (support/double-rules.ts cites GitHub's documentation for
 * each rule): the adapter's merges and branch moves on repositories with merge settings, classic
 * branch protection and rulesets, and the App's bypass, each answered as GitHub answers, so that
 * the landing and scenario tests meet GitHub's behaviour, not only its request shapes.
 */
import { describe, expect, it } from "vitest";
import { readRef } from "../../../services/forge/local/git/index.js";
import type { ForgePort } from "../../../services/forge/types.js";
import type { DoubleRepo } from "./support/double-state.js";
import { settingsOf, type DoubleRuleset } from "./support/double-rules.js";
import { useGithubDouble, type GithubDouble } from "./support/github-double.js";
import { forgeFor, repoWithPull } from "./support/scenarios.js";

let double: GithubDouble;
useGithubDouble((d) => (double = d));

type Setup = (repo: DoubleRepo) => void;
const classic =
  (over: Partial<{ contexts: string[]; approvals: number | null }>, extra = {}): Setup =>
  (repo) => {
    repo.protection.set("main", { contexts: [], checks: [], approvals: null, conversation: false, ...over });
    settingsOf(repo).classic.set("main", extra);
  };
const ruleset =
  (rules: DoubleRuleset["rules"], appBypass: DoubleRuleset["appBypass"] = "never"): Setup =>
  (repo) =>
    void settingsOf(repo).rulesets.push({ id: 300, name: "main", branches: ["main"], rules, appBypass });
const PR_RULE = {
  type: "pull_request",
  parameters: {
    required_approving_review_count: 1,
    dismiss_stale_reviews_on_push: false,
    require_code_owner_review: false,
    require_last_push_approval: false,
    required_review_thread_resolution: false,
  },
};

/** Merges the pull request with `method`; GitHub's refusal message, or null when it merged. */
async function mergeRefusal(forge: ForgePort, repo: DoubleRepo, n: number, head: string, method: "merge" | "squash") {
  const err = await forge.mergePullRequest(repo.fullName, n, { method, expectedHeadSha: head }).catch((e) => e);
  return err instanceof Error ? err.message : null;
}

// biome-ignore format: a table, one row per line
const MERGES: [string, Setup, "merge" | "squash", string | null][] = [
  ["a method the repository does not allow", (r) => void (settingsOf(r).allowSquashMerge = false), "squash", "Squash merges are not allowed on this repository."],
  ["missing approvals (classic)", classic({ approvals: 1 }), "merge", "At least 1 approving review is required by reviewers with write access."],
  ["a required check never reported", classic({ contexts: ["test"] }), "merge", 'Required status check "test" is expected.'],
  ["a head behind the base under strict checks", classic({ contexts: ["test"] }, { strict: true }), "merge", "1 of 1 required status checks are expected."],
  ["a merge commit under linear history", classic({}, { linear: true }), "merge", "This branch must not contain merge commits."],
  ["a squash under linear history", classic({}, { linear: true }), "squash", null],
  ["unsigned commits merged under required signatures", classic({}, { signatures: true }), "merge", "Commits must have verified signatures."],
  ["a squash under required signatures (GitHub signs it)", classic({}, { signatures: true }), "squash", null],
  ["missing approvals (ruleset)", ruleset([PR_RULE]), "merge", "Repository rule violations found\n\nAt least 1 approving review is required by reviewers with write access."],
  ["missing approvals, the App bypassing always", ruleset([PR_RULE], "always"), "merge", null],
  ["missing approvals, the App bypassing for pull requests", ruleset([PR_RULE], "pull_requests_only"), "merge", null],
];

describe("merging a pull request", () => {
  it.each(MERGES)("refuses (or accepts) %s", async (_what, setup, method, expected) => {
    const { repo, pull, head } = await repoWithPull(double);
    if (/behind/.test(_what)) await repo.commit("main", { "other.txt": "o\n" }, "Moved on");
    setup(repo);
    const refused = await mergeRefusal(forgeFor(double), repo, pull.number, head, method);
    if (expected === null) expect(refused).toBeNull();
    else expect(refused).toContain(expected);
    expect(settingsOf(repo).refusals.map((r) => r.status)).toEqual(expected === null ? [] : [405]);
  });

  it("answers 'Base branch was modified' to every n-th merge request when asked", async () => {
    const { repo, pull, head } = await repoWithPull(double);
    settingsOf(repo).baseModifiedEvery = 1;
    const waits: number[] = [];
    const err = await forgeFor(double, { wait: async (ms) => void waits.push(ms) })
      .mergePullRequest(repo.fullName, pull.number, { method: "merge", expectedHeadSha: head })
      .catch((e) => e);
    expect(err.kind).toBe("transient");
    expect(settingsOf(repo).baseModifiedAnswers).toBe(5);
    expect(waits).toEqual([1000, 2000, 4000, 8000]);
  });

  it("does not merge a draft", async () => {
    const { repo, pull, head } = await repoWithPull(double, { pull: { draft: true } });
    expect(await mergeRefusal(forgeFor(double), repo, pull.number, head, "merge")).toContain(
      "Pull Request is still a draft",
    );
    settingsOf(repo).refusals.length = 0;
  });
});

// biome-ignore format: a table, one row per line
const PUSHES: [string, Setup, string | null][] = [
  ["a branch that requires a pull request", classic({ approvals: 0 }), "Changes must be made through a pull request."],
  ["the same with the App allowed to bypass it", classic({ approvals: 0 }, { pullRequestBypassApps: ["yardmaster-test"] }), null],
  ["a branch whose pushes are restricted", classic({}, { pushApps: ["someone-else"] }), "You're not authorized to push to this branch."],
  ["the same with the App among those allowed", classic({}, { pushApps: ["yardmaster-test"] }), null],
  ["a commit without the required check", classic({ contexts: ["test"] }), 'Required status check "test" is expected.'],
  ["an unsigned commit under required signatures", classic({}, { signatures: true }), "Commits must have verified signatures."],
  ["a ruleset requiring a pull request", ruleset([PR_RULE]), "Repository rule violations found\n\nChanges must be made through a pull request."],
  ["the same, the App bypassing for pull requests only", ruleset([PR_RULE], "pull_requests_only"), "Changes must be made through a pull request."],
  ["the same, the App bypassing always", ruleset([PR_RULE], "always"), null],
];

describe("moving a protected branch directly", () => {
  it.each(PUSHES)("refuses (or accepts) %s", async (_what, setup, expected) => {
    const { repo, head } = await repoWithPull(double);
    setup(repo);
    const err = await forgeFor(double)
      .fastForwardBranch(repo.fullName, "main", head)
      .catch((e) => e);
    if (expected === null) {
      expect(err).toBeUndefined();
      expect(await readRef(repo.git, "refs/heads/main")).toBe(head);
    } else {
      expect(err.message).toContain(expected);
      expect(settingsOf(repo).refusals.map((r) => r.status)).toEqual([422]);
    }
  });
});
