/**
 * What a base branch's protection requires (ForgePort.getBranchProtection; docs/domain.md
 * §2.5 injected conditions; docs/github.md "Operations"). Two GitHub sources, combined:
 * - classic branch protection, `GET .../branches/{branch}/protection`: required status check
 *   contexts, required approving review count, required conversation resolution. Reading it needs
 *   the App's "Administration: read" permission; without it (403), or when the branch is not
 *   protected (404), it contributes nothing;
 * - repository rulesets that apply to the branch, `GET .../rules/branches/{branch}` (metadata
 *   permission): `required_status_checks` and `pull_request` rules.
 * Checks are the union (in first-seen order); approvals the highest count; conversation
 * resolution required when either source requires it.
 */
import type { GithubOctokit } from "./client.js";
import { githubStatus } from "./errors.js";
import { checkBranchName } from "./refs.js";
import type { RepoParams } from "./repo-name.js";

/** The port's answer. */
export interface BranchProtection {
  requiredChecks: string[];
  requiredApprovals: number;
  requireConversationResolution: boolean;
}

async function classicProtection(gh: GithubOctokit, params: RepoParams, branch: string): Promise<BranchProtection> {
  try {
    const { data } = await gh.rest.repos.getBranchProtection({ ...params, branch });
    const checks = data.required_status_checks;
    return {
      requiredChecks: [...(checks?.contexts ?? []), ...(checks?.checks ?? []).map((c) => c.context)],
      requiredApprovals: data.required_pull_request_reviews?.required_approving_review_count ?? 0,
      requireConversationResolution: data.required_conversation_resolution?.enabled ?? false,
    };
  } catch (e) {
    const status = githubStatus(e);
    if (status === 404 || status === 403)
      return { requiredChecks: [], requiredApprovals: 0, requireConversationResolution: false };
    throw e;
  }
}

/* Rule items are a union of many shapes; only these two are read. */
interface RuleItem {
  type: string;
  parameters?: {
    required_status_checks?: { context: string }[];
    required_approving_review_count?: number;
    required_review_thread_resolution?: boolean;
  };
}

async function rulesetProtection(gh: GithubOctokit, params: RepoParams, branch: string): Promise<BranchProtection> {
  const rules = (await gh.paginate(gh.rest.repos.getBranchRules, { ...params, branch, per_page: 100 })) as RuleItem[];
  const out: BranchProtection = { requiredChecks: [], requiredApprovals: 0, requireConversationResolution: false };
  for (const rule of rules) {
    if (rule.type === "required_status_checks")
      out.requiredChecks.push(...(rule.parameters?.required_status_checks ?? []).map((c) => c.context));
    if (rule.type === "pull_request") {
      out.requiredApprovals = Math.max(out.requiredApprovals, rule.parameters?.required_approving_review_count ?? 0);
      out.requireConversationResolution ||= rule.parameters?.required_review_thread_resolution === true;
    }
  }
  return out;
}

/** The combined protection of `branch`. */
export async function readBranchProtection(
  gh: GithubOctokit,
  params: RepoParams,
  branch: string,
): Promise<BranchProtection> {
  checkBranchName(branch);
  const [classic, rulesets] = await Promise.all([
    classicProtection(gh, params, branch),
    rulesetProtection(gh, params, branch),
  ]);
  return {
    requiredChecks: [...new Set([...classic.requiredChecks, ...rulesets.requiredChecks])],
    requiredApprovals: Math.max(classic.requiredApprovals, rulesets.requiredApprovals),
    requireConversationResolution: classic.requireConversationResolution || rulesets.requireConversationResolution,
  };
}
