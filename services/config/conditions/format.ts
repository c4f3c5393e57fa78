/**
 * The canonical text of a condition, used by every rendering (Markdown checklist, API JSON,
 * simulator summary): `[-][#]attribute operator value` with one space around the operator and
 * aliases resolved (`≥` is shown `>=`), booleans as `draft` / `-draft` (docs/domain.md §2.1
 * "Canonical text", §2.6).
 */
import type { Condition, ConditionLeaf } from "../model.js";

/** `-#label >= 2`, `base = main`, `-draft`. */
export function leafToString(leaf: ConditionLeaf): string {
  const head = `${leaf.negate ? "-" : ""}${leaf.length ? "#" : ""}${leaf.attribute}`;
  if (leaf.operator === null) return head;
  return `${head} ${leaf.operator} ${leaf.valueText ?? valueToString(leaf)}`;
}

function valueToString(leaf: ConditionLeaf): string {
  const v = leaf.value;
  if (v === null) return "";
  switch (v.type) {
    case "string":
      return v.value;
    case "number":
      return String(v.value);
    case "regex":
      return v.source;
    case "glob":
      return v.pattern;
    case "timestamp":
      return v.value.toISOString();
    case "relative":
      return `${v.seconds} seconds ago`;
    case "permission":
      return v.value;
    case "template":
      return `{{ ${v.template} }}`;
    default:
      return leaf.text;
  }
}

/** Label of a node: the canonical leaf text, or `all of` / `any of` / `not` for groups. */
export function conditionLabel(condition: Condition): string {
  if (condition.kind === "leaf") return leafToString(condition);
  return condition.kind === "and" ? "all of" : condition.kind === "or" ? "any of" : "not";
}
