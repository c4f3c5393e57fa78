/**
 * Conditions injected from the base branch's protection rules (docs/domain.md §2.5), for
 * queue rules whose `branch_protection_injection_mode` is not `none`: each required check must
 * succeed, be neutral or be skipped; required reviews need enough approvals and no change
 * request; conversation resolution needs no unresolved thread. Every injected node is described
 * "🛡 GitHub branch protection", or as the forge says the rules come from (the local forge: its CI
 * file).
 */
import type { Condition, ConditionLeaf } from "../model.js";

/** What the forge reports about a branch's protection. */
export interface BranchProtectionRules {
  /** Names of the checks that must pass. */
  requiredChecks: readonly string[];
  /** Approvals required; 0 when reviews are not required. */
  requiredApprovals: number;
  /** Every review thread must be resolved. */
  requireConversationResolution: boolean;
  /**
   * What the rules come from, shown next to each injected condition; absent: GitHub's branch
   * protection ({@link BRANCH_PROTECTION_DESCRIPTION}). The local forge names its CI file.
   */
  description?: string;
}

/** Description of every injected condition of GitHub's branch protection. */
export const BRANCH_PROTECTION_DESCRIPTION = "🛡 GitHub branch protection";

function leaf(
  attribute: string,
  operator: "=" | ">=",
  value: string | number,
  length: boolean,
  description: string,
): ConditionLeaf {
  const written = String(value);
  return {
    kind: "leaf",
    text: `${length ? "#" : ""}${attribute}${operator}${written}`,
    attribute,
    negate: false,
    length,
    operator,
    value: typeof value === "number" ? { type: "number", value } : { type: "string", value },
    valueText: written,
    description,
  };
}

/** The conditions a branch's protection adds, in the order above (check names kept verbatim). */
export function branchProtectionConditions(rules: BranchProtectionRules): Condition[] {
  const d = rules.description ?? BRANCH_PROTECTION_DESCRIPTION;
  const out: Condition[] = rules.requiredChecks.map((name) => ({
    kind: "or",
    description: d,
    conditions: [
      leaf("check-success", "=", name, false, d),
      leaf("check-neutral", "=", name, false, d),
      leaf("check-skipped", "=", name, false, d),
    ],
  }));
  if (rules.requiredApprovals > 0) {
    out.push(
      leaf("approved-reviews-by", ">=", rules.requiredApprovals, true, d),
      leaf("changes-requested-reviews-by", "=", 0, true, d),
    );
  }
  if (rules.requireConversationResolution) out.push(leaf("review-threads-unresolved", "=", 0, true, d));
  return out;
}
