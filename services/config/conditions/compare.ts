/**
 * Operators over attribute values (docs/domain.md §2.3, docs/conditions.md "Evaluation"):
 * list attributes match when ANY element matches, except `!=` which needs ALL elements to
 * differ (an empty list: any -> false, `!=` -> true); a null value never satisfies `<`, `>`,
 * `~=`, `*=`, `<=`, `>=` or `=`, and always satisfies `!=`.
 */
import type { ConditionValue, Operator } from "../model.js";
import type { AttributeValue } from "./context.js";
import { globMatches } from "./glob.js";
import { permissionRank } from "./values.js";

/** Raised when a leaf cannot be evaluated (unknown team...); the leaf is then false. */
export class EvaluationError extends Error {
  override readonly name = "EvaluationError";
}

/** How one element is compared: resolved reference value plus options. */
export interface Comparison {
  operator: Operator;
  value: ConditionValue;
  /** Compare texts case-insensitively (logins, labels). */
  caseInsensitive: boolean;
  /** Resolved `{{ author }}`. */
  author: string | null;
  /** Members of a team value (`@org/team`), lower case; undefined when the value is no team. */
  teamMembers?: ReadonlySet<string>;
  /** The current instant, for relative times. */
  now: Date;
}

/** `a op b` for numbers or texts (ordering operators compare as JavaScript does); false for `~=`/`*=`. */
export function order(a: number | string, b: number | string, op: Operator): boolean {
  switch (op) {
    case "=":
      return a === b;
    case "!=":
      return a !== b;
    case "<":
      return a < b;
    case ">":
      return a > b;
    case "<=":
      return a <= b;
    case ">=":
      return a >= b;
    default:
      return false;
  }
}

function reference(c: Comparison): string | number | null {
  const v = c.value;
  switch (v.type) {
    case "string":
      return c.caseInsensitive ? v.value.toLowerCase() : v.value;
    case "template":
      return c.author === null ? null : c.caseInsensitive ? c.author.toLowerCase() : c.author;
    case "number":
      return v.value;
    case "permission":
      return permissionRank(v.value);
    case "timestamp":
      return v.value.getTime();
    case "relative":
      return c.now.getTime() - v.seconds * 1000;
    default:
      return null;
  }
}

/** Compares one non-null element with the condition value (`!=` is handled by the caller). */
export function elementMatches(element: string | number | boolean | Date, c: Comparison): boolean {
  const v = c.value;
  if (v.type === "regex") return new RegExp(v.source, v.flags).test(String(element));
  if (v.type === "glob") return globMatches(v.pattern, String(element));
  if (c.teamMembers !== undefined && (c.operator === "=" || c.operator === "!=")) {
    const inTeam = c.teamMembers.has(String(element).toLowerCase());
    return c.operator === "=" ? inTeam : !inTeam;
  }
  const ref = reference(c);
  if (ref === null) return false;
  let left: string | number;
  if (element instanceof Date) left = element.getTime();
  else if (v.type === "permission") left = permissionRank(String(element));
  else if (typeof element === "string") left = c.caseInsensitive ? element.toLowerCase() : element;
  else if (typeof element === "boolean") left = element ? 1 : 0;
  else left = element;
  if (typeof left !== typeof ref) return c.operator === "!=";
  return order(left, ref, c.operator);
}

/** Applies the operator to a whole attribute value with the list and null rules. */
export function valueMatches(value: AttributeValue, c: Comparison): boolean {
  if (value === null) return c.operator === "!=";
  if (Array.isArray(value)) {
    if (c.operator === "!=") return value.every((item) => item === null || elementMatches(item, c));
    return value.some((item) => item !== null && elementMatches(item, c));
  }
  return elementMatches(value as string | number | boolean | Date, c);
}

/** The length `#attr` reads: a precomputed length, else list size or text length; null -> 0. */
export function lengthOf(value: AttributeValue, precomputed: number | undefined): number {
  if (precomputed !== undefined) return precomputed;
  if (value === null) return 0;
  if (Array.isArray(value)) return value.length;
  if (typeof value === "string") return value.length;
  return 0;
}
