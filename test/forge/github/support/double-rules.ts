/**
 * The GitHub test double's model of what a repository lets the App write: the repository's merge
 * methods, classic branch protection and rulesets, with the App's bypass, as GitHub documents them.
 * The settings a test gives live beside each DoubleRepo ({@link settingsOf}); double-rule-handlers.ts
 * enforces them on the operations that write a branch.
 *
 * - Merge methods: "Allow merge commits", "Allow squash merging", "Allow rebase merging"; a method
 *   the repository does not allow is refused with 405 "Merge commits are not allowed on this
 *   repository." (squash, rebase alike)
 *   (https://docs.github.com/en/repositories/configuring-branches-and-merges-in-your-repository/configuring-pull-request-merges/about-merge-methods-on-github).
 * - Classic branch protection
 *   (https://docs.github.com/en/repositories/configuring-branches-and-merges-in-your-repository/managing-protected-branches/about-protected-branches):
 *   "Require a pull request before merging" (with a number of approvals; apps in "Allow specified
 *   actors to bypass required pull requests" skip it), "Require status checks to pass" (and "Require
 *   branches to be up to date before merging": the head must contain the base's tip), "Require
 *   signed commits", "Require linear history", "Restrict who can push" (apps listed may). Status
 *   checks, up-to-date, signatures and linear history have no bypass for an App (only
 *   administrators may be exempt).
 * - Rulesets (https://docs.github.com/en/repositories/configuring-branches-and-merges-in-your-repository/managing-rulesets/available-rules-for-rulesets,
 *   bypass: https://docs.github.com/en/repositories/configuring-branches-and-merges-in-your-repository/managing-rulesets/creating-rulesets-for-a-repository#granting-bypass-permissions-for-your-branch-or-tag-ruleset):
 *   `pull_request`, `required_status_checks` (with `strict_required_status_checks_policy`),
 *   `required_linear_history`, `required_signatures`, `non_fast_forward`, `update`, `merge_queue`;
 *   an app bypass mode `always` (or `exempt`) skips the ruleset for every write,
 *   `pull_requests_only` only when merging a pull request. Refusals start "Repository rule
 *   violations found".
 * - Signatures: a commit is verified when GitHub made it for the App (a merge, squash or rebase
 *   through the merge API, the merges API, a Git data commit without an author given) or when its
 *   message holds "[signed]" (the double's stand-in for a contributor's signature)
 *   (https://docs.github.com/en/authentication/managing-commit-signature-verification/about-commit-signature-verification#signature-verification-for-bots).
 *   A merge commit brings the pull request's own commits onto the branch, so each must be verified;
 *   a squash or rebase merge writes new commits that GitHub signs.
 */
import { runGit } from "../../../../services/forge/local/git/index.js";
import type { DoubleRepo } from "./double-state.js";

/** How the App may bypass a ruleset (`current_user_can_bypass`). */
export type BypassMode = "always" | "pull_requests_only" | "never" | "exempt";

/** Classic protection settings beyond DoubleRepo.protection's (checks, approvals, conversations). */
export interface ClassicSettings {
  strict?: boolean;
  linear?: boolean;
  signatures?: boolean;
  /** "Restrict who can push": the app slugs allowed; absent: no restriction. */
  pushApps?: string[];
  /** Apps (slugs) allowed to bypass the pull request requirement. */
  pullRequestBypassApps?: string[];
}

/** A ruleset on branches of the repository. */
export interface DoubleRuleset {
  id: number;
  name: string;
  /** Branch names it targets. */
  branches: string[];
  rules: { type: string; parameters?: Record<string, unknown> }[];
  /** The App's bypass (what `current_user_can_bypass` answers it). */
  appBypass: BypassMode;
}

/** What a test sets on a repository. */
export interface RepoSettings {
  allowMergeCommit: boolean;
  allowSquashMerge: boolean;
  allowRebaseMerge: boolean;
  /** Classic protection settings by branch (with DoubleRepo.protection). */
  classic: Map<string, ClassicSettings>;
  rulesets: DoubleRuleset[];
  /** Every n-th merge request is answered 405 "Base branch was modified" (null: never). */
  baseModifiedEvery: number | null;
  /** Merge requests seen (for baseModifiedEvery). */
  mergeRequests: number;
  /** Merge requests answered "Base branch was modified". */
  baseModifiedAnswers: number;
  /** Commits GitHub made for the App (verified). */
  verified: Set<string>;
  /** Every write the rules refused: operation, status, message (tests expect none where the queue complies). */
  refusals: { operation: string; status: number; message: string }[];
}

const SETTINGS = new WeakMap<DoubleRepo, RepoSettings>();

/** The settings of `repo` (GitHub's defaults until a test changes them). */
export function settingsOf(repo: DoubleRepo): RepoSettings {
  let s = SETTINGS.get(repo);
  if (!s) {
    s = {
      allowMergeCommit: true,
      allowSquashMerge: true,
      allowRebaseMerge: true,
      classic: new Map(),
      rulesets: [],
      baseModifiedEvery: null,
      mergeRequests: 0,
      baseModifiedAnswers: 0,
      verified: new Set(),
      refusals: [],
    };
    SETTINGS.set(repo, s);
  }
  return s;
}

/** What one kind of write must satisfy on a branch, each requirement with its source. */
export interface Requirements {
  /** Approvals needed, or null when no pull request is required. */
  pullRequest: { approvals: number; ruleset: boolean } | null;
  checks: { context: string; strict: boolean; ruleset: boolean }[];
  linear: { ruleset: boolean } | null;
  signatures: { ruleset: boolean } | null;
  /** Writes refused outright (restrict who can push, `update`, `merge_queue`), with their message. */
  forbidden: { message: string; ruleset: boolean }[];
  nonFastForward: boolean;
}

/** The requirements on `branch` for the App (`slug`) merging a pull request ("merge") or moving the branch ("push"). */
export function requirementsOf(repo: DoubleRepo, branch: string, slug: string, write: "merge" | "push"): Requirements {
  const out: Requirements = {
    pullRequest: null,
    checks: [],
    linear: null,
    signatures: null,
    forbidden: [],
    nonFastForward: false,
  };
  const settings = settingsOf(repo);
  const classic = repo.protection.get(branch);
  if (classic && classic !== "forbidden") {
    const extra = settings.classic.get(branch) ?? {};
    out.nonFastForward = true;
    if (classic.approvals !== null && !(extra.pullRequestBypassApps ?? []).includes(slug))
      out.pullRequest = { approvals: classic.approvals, ruleset: false };
    for (const context of [...classic.contexts, ...classic.checks])
      out.checks.push({ context, strict: extra.strict === true, ruleset: false });
    if (extra.linear) out.linear = { ruleset: false };
    if (extra.signatures) out.signatures = { ruleset: false };
    if (write === "push" && extra.pushApps && !extra.pushApps.includes(slug))
      out.forbidden.push({
        message:
          "You're not authorized to push to this branch. Visit https://docs.github.com/repositories/configuring-branches-and-merges-in-your-repository/managing-protected-branches/about-protected-branches for more information.",
        ruleset: false,
      });
  }
  for (const set of settings.rulesets.filter((r) => r.branches.includes(branch))) {
    if (set.appBypass === "always" || set.appBypass === "exempt") continue;
    if (set.appBypass === "pull_requests_only" && write === "merge") continue;
    for (const rule of set.rules) {
      const p = rule.parameters ?? {};
      if (rule.type === "pull_request") {
        const approvals = Number(p.required_approving_review_count ?? 0);
        out.pullRequest = { approvals: Math.max(approvals, out.pullRequest?.approvals ?? 0), ruleset: true };
      } else if (rule.type === "required_status_checks") {
        for (const c of (p.required_status_checks as { context: string }[] | undefined) ?? [])
          out.checks.push({
            context: c.context,
            strict: p.strict_required_status_checks_policy === true,
            ruleset: true,
          });
      } else if (rule.type === "required_linear_history") out.linear = { ruleset: true };
      else if (rule.type === "required_signatures") out.signatures = { ruleset: true };
      else if (rule.type === "non_fast_forward") out.nonFastForward = true;
      else if (rule.type === "update")
        out.forbidden.push({ message: "Cannot update this protected ref.", ruleset: true });
      else if (rule.type === "merge_queue")
        out.forbidden.push({ message: "Changes must be made through the merge queue", ruleset: true });
    }
  }
  return out;
}

/** GitHub's wording of a refusal: rulesets' is a list under "Repository rule violations found". */
export function refusalMessage(line: string, ruleset: boolean): string {
  return ruleset ? `Repository rule violations found\n\n${line}\n\n` : line;
}

/** The commits `to` brings that `from` does not hold (`from` null: all of `to`'s history). */
export async function newCommits(repo: DoubleRepo, from: string | null, to: string): Promise<string[]> {
  const out = await runGit(repo.git.gitDir, ["rev-list", from ? `${from}..${to}` : to]);
  return out.stdout.toString("utf8").split("\n").filter(Boolean);
}

/** Whether `sha` is a merge commit. */
export async function isMergeCommit(repo: DoubleRepo, sha: string): Promise<boolean> {
  const out = await runGit(repo.git.gitDir, ["rev-list", "--parents", "-n", "1", sha]);
  return out.stdout.toString("utf8").trim().split(" ").length > 2;
}

/** Whether GitHub shows `sha` as verified. */
export async function isVerified(repo: DoubleRepo, sha: string): Promise<boolean> {
  if (settingsOf(repo).verified.has(sha)) return true;
  const out = await runGit(repo.git.gitDir, ["log", "-1", "--format=%B", sha]);
  return out.stdout.toString("utf8").includes("[signed]");
}
