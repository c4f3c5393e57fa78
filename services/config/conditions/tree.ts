/**
 * Condition lists as written in the YAML file (docs/domain.md §2.4, docs/conditions.md
 * "Groups"): a list of items, each a condition string or a one-key object `and: [...]`,
 * `or: [...]` or `not: <string | and | or>`; a list is an implicit `and` and may also be the
 * literal `true` (always). At most 500 items per list.
 */
import type { Condition } from "../model.js";
import { ConditionError, parseCondition } from "./leaf-parser.js";

/** A problem in a condition list, with its path relative to the list. */
export interface ConditionIssue {
  path: (string | number)[];
  message: string;
}

/** Most items a condition list may hold. */
export const MAX_CONDITIONS = 500;

function describe(value: unknown): string {
  if (value === null || value === undefined) return "nothing";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  return `the ${typeof value} ${JSON.stringify(value)}`;
}

function item(value: unknown, path: (string | number)[], issues: ConditionIssue[]): Condition | null {
  if (typeof value === "string") {
    try {
      return parseCondition(value);
    } catch (e) {
      if (e instanceof ConditionError) {
        issues.push({ path, message: e.message });
        return null;
      }
      throw e;
    }
  }
  if (value === null || value === undefined) {
    issues.push({
      path,
      message:
        'Invalid condition: the condition is empty (in YAML, a condition starting with "#" must be quoted, e.g. "#approved-reviews-by>=1")',
    });
    return null;
  }
  if (typeof value === "object" && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const key = keys[0];
    if (keys.length === 1 && (key === "and" || key === "or")) {
      const sub = list((value as Record<string, unknown>)[key], [...path, key], issues, false);
      return sub === null ? null : { kind: key, conditions: sub === true ? [] : sub };
    }
    if (keys.length === 1 && key === "not") {
      const inner = (value as Record<string, unknown>).not;
      if (Array.isArray(inner)) {
        issues.push({
          path: [...path, "not"],
          message:
            "expected one condition or one and/or group under not, got a list (wrap several conditions in and: or or:)",
        });
        return null;
      }
      const sub = item(inner, [...path, "not"], issues);
      return sub === null ? null : { kind: "not", conditions: [sub] };
    }
    if (keys.length === 1 && typeof (value as Record<string, unknown>)[key] !== "object") {
      const written = `${key}: ${String((value as Record<string, unknown>)[key])}`;
      issues.push({
        path,
        message: `expected a condition or an and/or/not group, got an object with key "${key}"; if you meant the condition "${written}", quote it in YAML or write it without ": "`,
      });
      return null;
    }
    issues.push({
      path,
      message: `expected a condition or a group with exactly one key among and, or, not; got keys ${keys.map((k) => `"${k}"`).join(", ") || "none"}`,
    });
    return null;
  }
  issues.push({ path, message: `expected a condition string or an and/or/not group, got ${describe(value)}` });
  return null;
}

function list(
  value: unknown,
  path: (string | number)[],
  issues: ConditionIssue[],
  allowTrue: boolean,
): Condition[] | true | null {
  if (value === true && allowTrue) return true;
  if (!Array.isArray(value)) {
    issues.push({
      path,
      message: `expected a list of conditions${allowTrue ? " or true" : ""}, got ${describe(value)}`,
    });
    return null;
  }
  if (value.length > MAX_CONDITIONS) {
    issues.push({ path, message: `expected at most ${MAX_CONDITIONS} conditions, got ${value.length}` });
    return null;
  }
  const out: Condition[] = [];
  const before = issues.length;
  value.forEach((v, i) => {
    const c = item(v, [...path, i], issues);
    if (c !== null) out.push(c);
  });
  return issues.length === before ? out : null;
}

/**
 * Parses a condition list as found in the YAML (`true` is kept as `true`).
 * Returns every problem found, each with its path relative to the list.
 */
export function parseConditionList(value: unknown): {
  conditions: Condition[] | true | null;
  issues: ConditionIssue[];
} {
  const issues: ConditionIssue[] = [];
  const conditions = list(value, [], issues, true);
  return { conditions, issues };
}
