/**
 * Landing by moving the base to the tested commit (`merge_method: fast-forward`; docs/github.md
 * "Landing a batch") against the double: the base moves to the check's commit, never to each pull
 * request's head; a branch the App may not push to refuses it before any CI or write, saying what to
 * change; a linear history gets a replayed (linear) check branch, and signed commits the App's own;
 * a ruleset's `pull_requests_only` bypass lets the App merge pull requests, not push.
 */
import { describe, expect, it } from "vitest";
import { readCommit, readRef } from "../../../services/forge/local/git/index.js";
import { settingsOf } from "./support/double-rules.js";
import { useGithubDouble, type GithubDouble } from "./support/github-double.js";
import { forgeFor, repoWithPulls } from "./support/scenarios.js";

let double: GithubDouble;
useGithubDouble((d) => (double = d));

/** A repository with `n` pull requests and the base's tip. */
async function batch(n: number) {
  const { repo, pulls } = await repoWithPulls(double, n);
  return { repo, pulls, base: (await readRef(repo.git, "refs/heads/main"))! };
}

describe("fast-forward", () => {
  it("moves the base to the tested commit, not to each pull request's head; GitHub marks them merged", async () => {
    const { repo, pulls, base } = await batch(2);
    const forge = forgeFor(double);
    const checkSha = await forge.createSpeculativeBranch(repo.fullName, "yardmaster/merge-queue/ff", base, pulls, {
      base: "main",
      method: "fast-forward",
    });
    const input = { base: "main", expectedBaseSha: base, method: "fast-forward" as const, pulls, checkSha };
    const out = await forge.mergePullRequests(repo.fullName, input);
    expect(out.newBaseSha).toBe(checkSha);
    expect(await readRef(repo.git, "refs/heads/main")).toBe(checkSha);
    expect(pulls.map((p) => repo.pull(p.number)!.mergedAt !== null)).toEqual([true, true]);
    expect(await forge.mergePullRequests(repo.fullName, input)).toEqual(out);
  });

  it("where the App may not push is refused before any check or write, saying what to change", async () => {
    const { repo, pulls, base } = await batch(1);
    repo.protection.set("main", { contexts: [], checks: [], approvals: 1, conversation: false });
    const forge = forgeFor(double);
    const writes = () =>
      double.requests.filter((r) => r.method !== "GET" && r.path.startsWith(`/repos/${repo.fullName}/`));
    const err = await forge
      .createSpeculativeBranch(repo.fullName, "yardmaster/merge-queue/ff-2", base, pulls, {
        base: "main",
        method: "fast-forward",
      })
      .catch((e) => e);
    expect(err).toMatchObject({ refusal: "protection" });
    expect(err.message).toContain("requires a pull request before merging");
    expect(err.message).toContain("bypass");
    expect(writes()).toEqual([]);
    // With the App allowed to bypass the pull request requirement, it lands.
    settingsOf(repo).classic.set("main", { pullRequestBypassApps: [double.appSlug] });
    const forgeNow = forgeFor(double);
    const checkSha = await forgeNow.createSpeculativeBranch(repo.fullName, "yardmaster/merge-queue/ff-2", base, pulls, {
      base: "main",
      method: "fast-forward",
    });
    await forgeNow.mergePullRequests(repo.fullName, {
      base: "main",
      expectedBaseSha: base,
      method: "fast-forward",
      pulls,
      checkSha,
    });
    expect(await readRef(repo.git, "refs/heads/main")).toBe(checkSha);
  });

  it("under a linear history replays the commits (no merge commit), closing the pull requests with a note", async () => {
    const { repo, pulls, base } = await batch(2);
    repo.protection.set("main", { contexts: [], checks: [], approvals: null, conversation: false });
    settingsOf(repo).classic.set("main", { linear: true, signatures: true });
    const forge = forgeFor(double);
    const checkSha = await forge.createSpeculativeBranch(repo.fullName, "yardmaster/merge-queue/lin", base, pulls, {
      base: "main",
      method: "fast-forward",
    });
    const tip = await readCommit(repo.git, checkSha);
    const first = await readCommit(repo.git, tip.parents[0]!);
    expect([tip.parents.length, first.parents]).toEqual([1, [base]]);
    // Signed commits required: the replays are the App's (GitHub signs them), the author credited.
    expect(tip.message).toContain("Co-authored-by:");
    await forge.mergePullRequests(repo.fullName, {
      base: "main",
      expectedBaseSha: base,
      method: "fast-forward",
      pulls,
      checkSha,
    });
    expect(await readRef(repo.git, "refs/heads/main")).toBe(checkSha);
    for (const p of pulls) {
      expect(repo.pull(p.number)!.state).toBe("closed");
      expect(repo.comments.some((c) => c.number === p.number && c.body.includes(checkSha))).toBe(true);
    }
  });
});

describe("rulesets and the App's bypass", () => {
  it("pull_requests_only lets the App merge without approvals, not push", async () => {
    const { repo, pulls, base } = await batch(1);
    settingsOf(repo).rulesets.push({
      id: 900,
      name: "main",
      branches: ["main"],
      rules: [
        {
          type: "pull_request",
          parameters: {
            required_approving_review_count: 2,
            dismiss_stale_reviews_on_push: false,
            require_code_owner_review: false,
            require_last_push_approval: false,
            required_review_thread_resolution: false,
          },
        },
      ],
      appBypass: "pull_requests_only",
    });
    const forge = forgeFor(double);
    const err = await forge
      .createSpeculativeBranch(repo.fullName, "yardmaster/merge-queue/rs", base, pulls, {
        base: "main",
        method: "fast-forward",
      })
      .catch((e) => e);
    expect(err.message).toContain("ruleset 900 requires a pull request before merging");
    await forge.mergePullRequests(repo.fullName, { base: "main", expectedBaseSha: base, method: "merge", pulls });
    expect(repo.pull(pulls[0]!.number)!.mergedAt).not.toBeNull();
  });
});
