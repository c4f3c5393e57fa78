/**
 * Evaluation of condition trees (docs/domain.md §2.3, docs/conditions.md "Evaluation"):
 * three-valued results (true, false, "pending" while a check the condition reads has not
 * concluded), the next instant at which time alone can change a result, and evaluation errors
 * (the leaf is then false and carries the error).
 */
import type { Condition, ConditionGroup, ConditionLeaf, EvaluatedCondition, Truth } from "../model.js";
import { type AttributeSpec, isCheckAttribute } from "./attributes.js";
import { checkTruth } from "./checks.js";
import { type Comparison, EvaluationError, lengthOf, valueMatches } from "./compare.js";
import type { AttributeValue, EvaluationContext } from "./context.js";
import { specFor } from "./leaf-parser.js";
import { isQualifiedCheckLeaf, qualifiedCheckLeaf } from "./qualified-checks.js";
import { isTeamValue } from "./team-values.js";
import {
  earliest,
  evaluateCurrentDatetime,
  evaluateLegacyClock,
  evaluateSchedule,
  relativeCrossing,
} from "./time-leaves.js";

const COMMIT_ATTRIBUTE = /^commits\[(-?\d+|\*)\]\.([A-Za-z_]+)$/;
const LEGACY_CLOCKS = new Set(["time-of-day", "day", "month", "year", "day-of-week"]);

function canonicalName(spec: AttributeSpec, attribute: string): string {
  return spec.aliasOf ?? attribute;
}

function readValue(spec: AttributeSpec, attribute: string, ctx: EvaluationContext): AttributeValue {
  const commit = COMMIT_ATTRIBUTE.exec(attribute);
  if (commit !== null) {
    const field = commit[2] as keyof EvaluationContext["attributes"]["commits"][number];
    const commits = ctx.attributes.commits;
    if (commit[1] === "*") return commits.map((c) => c[field]);
    const index = Number(commit[1]);
    const c = commits[index < 0 ? commits.length + index : index];
    return c === undefined ? null : c[field];
  }
  const name = canonicalName(spec, attribute);
  const values = ctx.attributes.values;
  if (name === "check-success-or-neutral") {
    return [
      ...((values["check-success"] as string[] | undefined) ?? []),
      ...((values["check-neutral"] as string[] | undefined) ?? []),
    ];
  }
  const v = values[name];
  return v === undefined ? (spec.list ? [] : null) : v;
}

function comparisonFor(leaf: ConditionLeaf, spec: AttributeSpec, ctx: EvaluationContext): Comparison {
  const name = canonicalName(spec, leaf.attribute);
  let value = leaf.value!;
  const author = ctx.attributes.values.author;
  const comparison: Comparison = {
    operator: leaf.operator!,
    value,
    caseInsensitive: spec.value === "login" || spec.value === "depends-on" || name === "label",
    author: typeof author === "string" ? author : null,
    now: ctx.now,
  };
  if (value.type === "string" && spec.value === "login" && isTeamValue(value.value)) {
    const wanted = value.value.toLowerCase();
    const key = Object.keys(ctx.teams ?? {}).find((k) => k.toLowerCase() === wanted);
    if (key === undefined) throw new EvaluationError(`unknown team ${value.value}: its members are not known`);
    comparison.teamMembers = new Set(ctx.teams![key].map((l) => l.toLowerCase()));
  }
  if (value.type === "string" && spec.value === "depends-on" && value.value.startsWith("#")) {
    const repo = ctx.attributes.values["repository-full-name"];
    value = { type: "string", value: `${typeof repo === "string" ? repo : ""}${value.value}` };
    comparison.value = value;
  }
  return comparison;
}

function compareLength(n: number, leaf: ConditionLeaf): boolean {
  const v = leaf.value?.type === "number" ? leaf.value.value : NaN;
  switch (leaf.operator) {
    case "=":
      return n === v;
    case "!=":
      return n !== v;
    case "<":
      return n < v;
    case ">":
      return n > v;
    case "<=":
      return n <= v;
    case ">=":
      return n >= v;
    default:
      return false;
  }
}

function leafResult(
  leaf: ConditionLeaf,
  spec: AttributeSpec,
  ctx: EvaluationContext,
): { truth: Truth; next: Date | null; related: string[] } {
  if (spec.value === "schedule") {
    const r = evaluateSchedule(leaf, ctx.now);
    return { truth: r.match, next: r.nextChangeAt, related: [] };
  }
  if (spec.value === "datetime") {
    const r = evaluateCurrentDatetime(leaf, ctx.now);
    return { truth: r.match, next: r.nextChangeAt, related: [] };
  }
  if (LEGACY_CLOCKS.has(spec.value)) {
    const r = evaluateLegacyClock(leaf, ctx.now);
    return { truth: r.match, next: r.nextChangeAt, related: [] };
  }
  const value = readValue(spec, leaf.attribute, ctx);
  if (leaf.length) {
    const n = lengthOf(value, ctx.attributes.lengths[canonicalName(spec, leaf.attribute)]);
    const match = compareLength(n, leaf);
    return isCheckAttribute(spec) ? checkTruth(spec, match, null, ctx) : { truth: match, next: null, related: [] };
  }
  if (spec.value === "bool") {
    const match = Array.isArray(value) ? value.some((v) => v === true) : value === true;
    return { truth: match, next: null, related: [] };
  }
  const comparison = comparisonFor(leaf, spec, ctx);
  if (isQualifiedCheckLeaf(spec, leaf)) {
    const qualified = qualifiedCheckLeaf(spec, ctx);
    return checkTruth(spec, valueMatches(qualified.value, comparison), comparison, qualified.ctx);
  }
  const match = valueMatches(value, comparison);
  let next: Date | null = null;
  if (leaf.value?.type === "relative") {
    const dates = (Array.isArray(value) ? value : [value]).filter((d): d is Date => d instanceof Date);
    next = earliest(
      dates.map((d) => relativeCrossing(d, (leaf.value as { seconds: number }).seconds, leaf.operator!, ctx.now)),
    );
  }
  if (isCheckAttribute(spec)) return checkTruth(spec, match, comparison, ctx);
  return { truth: match, next, related: [] };
}

function evaluateLeaf(leaf: ConditionLeaf, ctx: EvaluationContext): EvaluatedCondition {
  const base = { condition: leaf, subconditions: [], relatedChecks: [] as string[], nextChangeAt: null as Date | null };
  const spec = specFor(leaf.attribute);
  if (spec === null) return { ...base, match: false, error: `unknown attribute "${leaf.attribute}"` };
  try {
    const r = leafResult(leaf, spec, ctx);
    const truth: Truth = leaf.negate ? (r.truth === "pending" ? "pending" : !r.truth) : r.truth;
    return { ...base, match: truth, nextChangeAt: r.next, relatedChecks: r.related };
  } catch (e) {
    if (e instanceof EvaluationError) return { ...base, match: false, error: e.message };
    throw e;
  }
}

/** Kleene logic: and = false if any false, else pending if any pending, else true; or is dual. */
function combine(kind: ConditionGroup["kind"], children: EvaluatedCondition[]): Truth {
  const truths = children.map((c) => c.match);
  if (kind === "not") {
    const t = truths[0] ?? false;
    return t === "pending" ? "pending" : !t;
  }
  if (kind === "and") {
    if (truths.includes(false)) return false;
    return truths.includes("pending") ? "pending" : true;
  }
  if (truths.includes(true)) return true;
  return truths.includes("pending") ? "pending" : false;
}

/**
 * Evaluates one condition (leaf or group) against a pull request.
 * Never throws for data problems: an unknown team or attribute becomes the leaf's `error`.
 */
export function evaluateCondition(condition: Condition, ctx: EvaluationContext): EvaluatedCondition {
  if (condition.kind === "leaf") return evaluateLeaf(condition, ctx);
  const subconditions = condition.conditions.map((c) => evaluateCondition(c, ctx));
  return {
    condition,
    match: combine(condition.kind, subconditions),
    subconditions,
    nextChangeAt: earliest(subconditions.map((s) => s.nextChangeAt)),
    relatedChecks: [...new Set(subconditions.flatMap((s) => s.relatedChecks))],
  };
}

/**
 * Evaluates a condition list (an implicit `and`; an empty list matches). The result's root is
 * that `and` group, whose subconditions are the list items in order.
 */
export function evaluateConditions(conditions: readonly Condition[], ctx: EvaluationContext): EvaluatedCondition {
  return evaluateCondition({ kind: "and", conditions: [...conditions] }, ctx);
}
