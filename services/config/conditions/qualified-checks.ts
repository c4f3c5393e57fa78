/**
 * Evaluating a qualified check name (docs/domain.md §2.1 rule 6, docs/conditions.md
 * "Values"): `check-success=@github-actions/ci` names the check "ci" posted by the app
 * "github-actions". A check leaf whose value is such a name is compared with the checks' qualified
 * names, `@<app>/<name>`, instead of their bare names; a check whose app is not known (a commit
 * status) has no qualified name and matches none. The form itself is checked when the condition
 * is parsed (check-names.ts).
 */
import type { ConditionLeaf } from "../model.js";
import type { AttributeSpec } from "./attributes.js";
import type { EvaluationContext } from "./context.js";

/** Whether a check leaf's value is a qualified check name (a literal text starting with "@"). */
export function isQualifiedCheckLeaf(spec: AttributeSpec, leaf: ConditionLeaf): boolean {
  return spec.checkStates !== undefined && leaf.value?.type === "string" && leaf.value.value.startsWith("@");
}

/**
 * What a qualified check leaf is evaluated against: the context with every check named
 * `@<app>/<name>` (a check without an app keeps its bare name, which no qualified value equals),
 * and the attribute's value, the qualified names of the checks in the attribute's states.
 * @param spec the leaf's attribute (a check attribute, with its `checkStates`)
 */
export function qualifiedCheckLeaf(
  spec: AttributeSpec,
  ctx: EvaluationContext,
): { ctx: EvaluationContext; value: string[] } {
  const checks = ctx.attributes.checks.map((c) => ({ ...c, name: c.app ? `@${c.app}/${c.name}` : c.name }));
  const states = new Set(spec.checkStates);
  return {
    ctx: { ...ctx, attributes: { ...ctx.attributes, checks } },
    value: checks.filter((c) => states.has(c.state)).map((c) => c.name),
  };
}
