/**
 * What GitHub requires of the App when it lands a batch on a base branch (docs/github.md "Landing a
 * batch"): the repository's allowed merge methods, and the branch's classic protection and
 * rulesets, after the App's own bypass. Read from:
 * - `GET /repos/{o}/{r}`: `allow_merge_commit`, `allow_squash_merge`, `allow_rebase_merge`
 *   (https://docs.github.com/en/repositories/configuring-branches-and-merges-in-your-repository/configuring-pull-request-merges/about-merge-methods-on-github);
 * - `GET .../branches/{b}/protection` (classic protection; needs "Administration: read": a 403 is
 *   reported as unreadable, never as "unprotected"): required status checks and `strict`, required
 *   pull request reviews with their bypass allowances (apps), push restrictions (apps allowed),
 *   linear history, signatures
 *   (https://docs.github.com/en/repositories/configuring-branches-and-merges-in-your-repository/managing-protected-branches/about-protected-branches);
 * - `GET .../rules/branches/{b}` and, for each ruleset met, `GET .../rulesets/{id}` whose
 *   `current_user_can_bypass` says whether the App bypasses it: `always` and `exempt` for every
 *   write, `pull_requests_only` when merging a pull request, `never` not at all
 *   (https://docs.github.com/en/repositories/configuring-branches-and-merges-in-your-repository/managing-rulesets/available-rules-for-rulesets).
 * Classic protection has no bypass for required status checks, strict checks, linear history or
 * signatures (only administrators may be exempt, and an App is never one); its review requirement
 * is bypassed by the apps of `bypass_pull_request_allowances`, its push restriction lifted for the
 * apps of `restrictions`.
 */
import { readBranchAnswers, type BranchAnswers, type RepositoryAnswer } from "./branch-reads.js";
import type { GithubOctokit } from "./client.js";
import { githubStatus } from "./errors.js";
import type { RepoParams } from "./repo-name.js";

/** A required status check: its name, and the app that must report it (null: any). */
export interface RequiredCheck {
  context: string;
  appId: number | null;
}

/** What a write must satisfy, after the App's bypass. */
export interface WriteRequirements {
  /** Approving reviews a merged pull request needs (0: none). */
  approvals: number;
  /** Required checks, successful on the commit merged (a pull request's head) or pushed. */
  checks: RequiredCheck[];
  /** A merged pull request's head must contain the base's tip ("require branches to be up to date"). */
  strict: boolean;
  /** No merge commit may reach the branch. */
  linear: boolean;
  /** Every commit reaching the branch must carry a verified signature. */
  signatures: boolean;
}

/** The landing rules of one base branch, for the App. */
export interface LandingRules {
  /** The merge methods the repository allows pull requests to use. */
  allowed: { merge: boolean; squash: boolean; rebase: boolean };
  /** False when the classic protection could not be read (no "Administration: read"): it may require more. */
  classicReadable: boolean;
  /** What merging a pull request through `PUT .../pulls/{n}/merge` must satisfy. */
  merge: WriteRequirements;
  /** What moving the branch directly (`PATCH .../git/refs`) must satisfy. */
  push: WriteRequirements;
  /** Why a direct move of the branch is refused whatever the commit (empty: it is allowed). */
  pushRefusals: string[];
  /** GitHub's own merge queue is required on the branch and the App does not bypass it. */
  githubMergeQueue: boolean;
}

type Bypass = "always" | "pull_requests_only" | "never" | "exempt";

interface ClassicProtection {
  required_status_checks?: {
    strict?: boolean;
    contexts?: string[];
    checks?: { context: string; app_id: number | null }[];
  } | null;
  required_pull_request_reviews?: {
    required_approving_review_count?: number;
    bypass_pull_request_allowances?: { apps?: { slug?: string }[] };
  } | null;
  restrictions?: { apps?: { slug?: string }[] } | null;
  required_linear_history?: { enabled?: boolean } | null;
  required_signatures?: { enabled?: boolean } | null;
}

interface RuleItem {
  type: string;
  ruleset_id?: number;
  parameters?: {
    required_approving_review_count?: number;
    required_status_checks?: { context: string; integration_id?: number }[];
    strict_required_status_checks_policy?: boolean;
  };
}

const none = (): WriteRequirements => ({ approvals: 0, checks: [], strict: false, linear: false, signatures: false });

async function bypassOf(gh: GithubOctokit, params: RepoParams, ids: number[]): Promise<Map<number, Bypass>> {
  const out = new Map<number, Bypass>();
  for (const id of ids) {
    try {
      const { data } = await gh.rest.repos.getRepoRuleset({ ...params, ruleset_id: id });
      out.set(id, (data.current_user_can_bypass as Bypass | undefined) ?? "never");
    } catch (e) {
      if (githubStatus(e) !== 404) throw e;
      out.set(id, "never");
    }
  }
  return out;
}

function addChecks(into: RequiredCheck[], checks: RequiredCheck[]): void {
  for (const c of checks) if (!into.some((x) => x.context === c.context)) into.push(c);
}

/** Applies the classic protection to both kinds of write. */
function applyClassic(rules: LandingRules, p: ClassicProtection, appSlug: string): void {
  const rsc = p.required_status_checks;
  const checks: RequiredCheck[] = rsc
    ? [
        ...(rsc.checks ?? []).map((c) => ({ context: c.context, appId: c.app_id ?? null })),
        ...(rsc.contexts ?? []).map((context) => ({ context, appId: null })),
      ]
    : [];
  for (const w of [rules.merge, rules.push]) {
    addChecks(w.checks, checks);
    w.linear ||= p.required_linear_history?.enabled === true;
    w.signatures ||= p.required_signatures?.enabled === true;
  }
  rules.merge.strict ||= rsc?.strict === true;
  const reviews = p.required_pull_request_reviews;
  if (reviews) {
    const bypass = (reviews.bypass_pull_request_allowances?.apps ?? []).some((a) => a.slug === appSlug);
    if (!bypass) {
      rules.merge.approvals = Math.max(rules.merge.approvals, reviews.required_approving_review_count ?? 0);
      rules.pushRefusals.push(
        'classic branch protection requires a pull request before merging, and the App is not in "Allow specified actors to bypass required pull requests"',
      );
    }
  }
  if (p.restrictions && !(p.restrictions.apps ?? []).some((a) => a.slug === appSlug))
    rules.pushRefusals.push(
      'classic branch protection restricts who can push, and the App is not among them ("Restrict who can push")',
    );
}

/** Applies the rules of one ruleset, as far as the App does not bypass them. */
function applyRuleset(rules: LandingRules, items: RuleItem[], bypass: Bypass, id: number): void {
  if (bypass === "always" || bypass === "exempt") return;
  const writes = bypass === "pull_requests_only" ? [rules.push] : [rules.merge, rules.push];
  for (const rule of items) {
    const p = rule.parameters ?? {};
    switch (rule.type) {
      case "pull_request":
        if (bypass !== "pull_requests_only")
          rules.merge.approvals = Math.max(rules.merge.approvals, p.required_approving_review_count ?? 0);
        rules.pushRefusals.push(`ruleset ${id} requires a pull request before merging, and the App may not bypass it`);
        break;
      case "required_status_checks":
        for (const w of writes)
          addChecks(
            w.checks,
            (p.required_status_checks ?? []).map((c) => ({ context: c.context, appId: c.integration_id ?? null })),
          );
        if (bypass !== "pull_requests_only") rules.merge.strict ||= p.strict_required_status_checks_policy === true;
        break;
      case "required_linear_history":
        for (const w of writes) w.linear = true;
        break;
      case "required_signatures":
        for (const w of writes) w.signatures = true;
        break;
      case "update":
        rules.pushRefusals.push(`ruleset ${id} restricts updates of the branch, and the App may not bypass it`);
        break;
      case "merge_queue":
        if (bypass !== "pull_requests_only") rules.githubMergeQueue = true;
        rules.pushRefusals.push(`ruleset ${id} requires GitHub's merge queue, and the App may not bypass it`);
        break;
    }
  }
}

/**
 * Reads the landing rules of `branch`.
 * @param appSlug the App's slug (classic allowances name apps by slug)
 * @throws the Octokit error of a read that failed (other than the 403/404 answers described above)
 */
export async function readLandingRules(
  gh: GithubOctokit,
  params: RepoParams,
  branch: string,
  appSlug: string,
  answers?: { repository: Promise<RepositoryAnswer>; branch: Promise<BranchAnswers> },
): Promise<LandingRules> {
  const [repo, { classic: answer, items: read }] = await Promise.all([
    answers?.repository ?? gh.rest.repos.get(params).then((r) => r.data as RepositoryAnswer),
    answers?.branch ?? readBranchAnswers(gh, params, branch),
  ]);
  const classic = answer as ClassicProtection | null | "unreadable";
  const items = read as unknown as RuleItem[];
  const rules: LandingRules = {
    allowed: {
      merge: repo.allow_merge_commit !== false,
      squash: repo.allow_squash_merge !== false,
      rebase: repo.allow_rebase_merge !== false,
    },
    classicReadable: classic !== "unreadable",
    merge: none(),
    push: none(),
    pushRefusals: [],
    githubMergeQueue: false,
  };
  if (classic !== null && classic !== "unreadable") applyClassic(rules, classic, appSlug);
  const ids = [...new Set(items.map((r) => r.ruleset_id).filter((id): id is number => typeof id === "number"))];
  const bypass = await bypassOf(gh, params, ids);
  for (const id of ids)
    applyRuleset(
      rules,
      items.filter((r) => r.ruleset_id === id),
      bypass.get(id)!,
      id,
    );
  // Rules without a ruleset id (none in GitHub's answers) apply without bypass.
  applyRuleset(
    rules,
    items.filter((r) => typeof r.ruleset_id !== "number"),
    "never",
    0,
  );
  return rules;
}

/** The pull request merge methods GitHub accepts on the branch: allowed by the repository, and no merge commit under linear history. */
export function acceptedMethods(rules: LandingRules): ("merge" | "squash" | "rebase")[] {
  return (["merge", "squash", "rebase"] as const).filter(
    (m) => rules.allowed[m] && !(m === "merge" && rules.merge.linear),
  );
}
