/**
 * Conditions injected from the base branch's protection rules (docs/domain.md §2.5), for
 * queue rules whose `branch_protection_injection_mode` is not `none`: each required check must
 * succeed, be neutral or be skipped; required reviews need enough approvals and no change
 * request; conversation resolution needs no unresolved thread. Every injected node is described
 * "🛡 GitHub branch protection".
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
}

/** Description of every injected condition. */
export const BRANCH_PROTECTION_DESCRIPTION = "🛡 GitHub branch protection";

function leaf(attribute: string, operator: "=" | ">=", value: string | number, length: boolean): ConditionLeaf {
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
    description: BRANCH_PROTECTION_DESCRIPTION,
  };
}

/** The conditions a branch's protection adds, in the order above (check names kept verbatim). */
export function branchProtectionConditions(rules: BranchProtectionRules): Condition[] {
  const out: Condition[] = rules.requiredChecks.map((name) => ({
    kind: "or",
    description: BRANCH_PROTECTION_DESCRIPTION,
    conditions: [
      leaf("check-success", "=", name, false),
      leaf("check-neutral", "=", name, false),
      leaf("check-skipped", "=", name, false),
    ],
  }));
  if (rules.requiredApprovals > 0) {
    out.push(
      leaf("approved-reviews-by", ">=", rules.requiredApprovals, true),
      leaf("changes-requested-reviews-by", "=", 0, true),
    );
  }
  if (rules.requireConversationResolution) out.push(leaf("review-threads-unresolved", "=", 0, true));
  return out;
}
