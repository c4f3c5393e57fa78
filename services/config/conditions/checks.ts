/**
 * The "pending" result of check-* leaves (docs/domain.md §2.3 "Pending checks",
 * docs/conditions.md "Pending checks"): a leaf that reads checks is pending, rather than false,
 * while a check it names has not concluded — the check is still running, or no check of that
 * name has reported yet. This is what tells "waiting for CI" from "CI failed": the queue
 * dequeues only on a definitive false.
 *
 * Rules, for the leaf before its `-` modifier:
 * - a true result from an any-element operator (`=`, `~=`, `*=`, ordering) is definitive;
 * - otherwise the leaf is pending when a running check matches the value, or when the value
 *   names checks (`=`, `!=`, `~=`, `*=`) and no check of any state matches it yet;
 * - a `#check-...` length leaf is pending while any check runs.
 */
import type { Truth } from "../model.js";
import type { AttributeSpec } from "./attributes.js";
import { type Comparison, elementMatches } from "./compare.js";
import type { EvaluationContext } from "./context.js";

/** The three-valued result of a check leaf, and the checks it read. */
export function checkTruth(
  spec: AttributeSpec,
  match: boolean,
  comparison: Comparison | null,
  ctx: EvaluationContext,
): { truth: Truth; next: null; related: string[] } {
  const checks = ctx.attributes.checks;
  if (comparison === null) {
    const states = new Set(spec.checkStates);
    const related = [...new Set(checks.filter((c) => states.has(c.state) || c.state === "pending").map((c) => c.name))];
    const running = checks.some((c) => c.state === "pending");
    return { truth: running ? "pending" : match, next: null, related };
  }
  const naming: Comparison = comparison.operator === "!=" ? { ...comparison, operator: "=" } : comparison;
  const named = checks.filter((c) => elementMatches(c.name, naming));
  const related = [...new Set(named.map((c) => c.name))];
  if (match && comparison.operator !== "!=") return { truth: true, next: null, related };
  const running = named.some((c) => c.state === "pending");
  const namesChecks = ["=", "!=", "~=", "*="].includes(comparison.operator);
  const notReported = namesChecks && named.length === 0;
  return { truth: running || notReported ? "pending" : match, next: null, related };
}
