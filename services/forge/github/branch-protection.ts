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
import { readBranchAnswers, type BranchAnswers } from "./branch-reads.js";
import type { GithubOctokit } from "./client.js";
import { checkBranchName } from "./refs.js";
import type { RepoParams } from "./repo-name.js";

/** The port's answer. */
export interface BranchProtection {
  requiredChecks: string[];
  requiredApprovals: number;
  requireConversationResolution: boolean;
}

function classicProtection(answer: BranchAnswers["classic"]): BranchProtection {
  if (answer === null || answer === "unreadable")
    return { requiredChecks: [], requiredApprovals: 0, requireConversationResolution: false };
  const data = answer as {
    required_status_checks?: { contexts?: string[]; checks?: { context: string }[] } | null;
    required_pull_request_reviews?: { required_approving_review_count?: number } | null;
    required_conversation_resolution?: { enabled?: boolean } | null;
  };
  const checks = data.required_status_checks;
  return {
    requiredChecks: [...(checks?.contexts ?? []), ...(checks?.checks ?? []).map((c) => c.context)],
    requiredApprovals: data.required_pull_request_reviews?.required_approving_review_count ?? 0,
    requireConversationResolution: data.required_conversation_resolution?.enabled ?? false,
  };
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

function rulesetProtection(items: BranchAnswers["items"]): BranchProtection {
  const out: BranchProtection = { requiredChecks: [], requiredApprovals: 0, requireConversationResolution: false };
  for (const rule of items as unknown as RuleItem[]) {
    if (rule.type === "required_status_checks")
      out.requiredChecks.push(...(rule.parameters?.required_status_checks ?? []).map((c) => c.context));
    if (rule.type === "pull_request") {
      out.requiredApprovals = Math.max(out.requiredApprovals, rule.parameters?.required_approving_review_count ?? 0);
      out.requireConversationResolution ||= rule.parameters?.required_review_thread_resolution === true;
    }
  }
  return out;
}

/**
 * The combined protection of `branch`, from its answers when the caller kept them (branch-reads.ts),
 * else read now.
 */
export async function readBranchProtection(
  gh: GithubOctokit,
  params: RepoParams,
  branch: string,
  answers?: () => Promise<BranchAnswers>,
): Promise<BranchProtection> {
  checkBranchName(branch);
  const read = await (answers ? answers() : readBranchAnswers(gh, params, branch));
  const classic = classicProtection(read.classic);
  const rulesets = rulesetProtection(read.items);
  return {
    requiredChecks: [...new Set([...classic.requiredChecks, ...rulesets.requiredChecks])],
    requiredApprovals: Math.max(classic.requiredApprovals, rulesets.requiredApprovals),
    requireConversationResolution: classic.requireConversationResolution || rulesets.requireConversationResolution,
  };
}
