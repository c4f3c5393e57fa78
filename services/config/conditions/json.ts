/**
 * The API form of an evaluated condition tree: `ConditionsEvaluation` of
 * proto/yardmaster/v1/queue.proto (merge queue pull request detail) and `ConditionEvaluation` of
 * events.proto (activity log metadata). docs/domain.md §4.3 "Conditions evaluation JSON",
 * docs/conditions.md "API form". Pending results are reported as `match: false`.
 */
import { DOCS_BASE_URL } from "../docs-url.js";
import type { Condition, EvaluatedCondition, Schedule } from "../model.js";
import { conditionLabel } from "./format.js";

/** One pull request's result for one node. */
export type ConditionEvaluationItemJson = {
  pull_request: number;
  match: boolean;
  evaluation_error: string | null;
  related_checks: string[];
  /** ISO-8601 UTC instant at which time alone may change the result, or null. */
  next_evaluation_at: string | null;
};

/** `{timezone, days: {monday: {times: [{start_at: {hour, minute}, end_at: {hour, minute}}]}, ...}}`. */
export type ScheduleJson = {
  timezone: string;
  days: Record<
    string,
    { times: { start_at: { hour: number; minute: number }; end_at: { hour: number; minute: number } }[] }
  >;
};

/** queue.proto `ConditionsEvaluation`. */
export type ConditionsEvaluationJson = {
  match: boolean;
  label: string;
  description: string;
  documentation_url: string;
  schedule: ScheduleJson | null;
  subconditions: ConditionsEvaluationJson[];
  evaluations: ConditionEvaluationItemJson[];
};

/** events.proto `ConditionEvaluation`. */
export interface ConditionEvaluationEventJson {
  match: boolean;
  label: string;
  is_label_user_input: boolean;
  description: string | null;
  attribute_name: string | null;
  operator: string | null;
  schedule: ScheduleJson | null;
  subconditions: ConditionEvaluationEventJson[];
  evaluations: ConditionEvaluationItemJson[];
}

const DAY_KEYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

/** The JSON description of a schedule (days outside the range have no times). */
export function scheduleJson(schedule: Schedule): ScheduleJson {
  const days: ScheduleJson["days"] = {};
  const times = schedule.times ?? { from: { hour: 0, minute: 0 }, to: { hour: 23, minute: 59 } };
  DAY_KEYS.forEach((key, i) => {
    const d = i + 1;
    const { from, to } = schedule.days ?? { from: 1, to: 7 };
    const active = from <= to ? d >= from && d <= to : d >= from || d <= to;
    days[key] = { times: active ? [{ start_at: { ...times.from }, end_at: { ...times.to } }] : [] };
  });
  return { timezone: schedule.timezone, days };
}

function documentationUrl(c: Condition): string {
  if (c.kind !== "leaf") return `${DOCS_BASE_URL}/conditions#groups`;
  const anchor = c.attribute.startsWith("commits[") ? "commits" : c.attribute;
  return `${DOCS_BASE_URL}/conditions#${anchor}`;
}

function scheduleOf(c: Condition): ScheduleJson | null {
  return c.kind === "leaf" && c.value?.type === "schedule" ? scheduleJson(c.value.schedule) : null;
}

function item(pullRequest: number, node: EvaluatedCondition): ConditionEvaluationItemJson {
  return {
    pull_request: pullRequest,
    match: node.match === true,
    evaluation_error: node.error ?? null,
    related_checks: [...node.relatedChecks],
    next_evaluation_at: node.nextChangeAt === null ? null : node.nextChangeAt.toISOString(),
  };
}

type PerPull = { pullRequest: number; tree: EvaluatedCondition };

function normalise(input: EvaluatedCondition | PerPull[], pullRequest?: number): PerPull[] {
  if (Array.isArray(input)) return input;
  return [{ pullRequest: pullRequest ?? 0, tree: input }];
}

function build<T>(
  nodes: PerPull[],
  make: (c: Condition, match: boolean, evaluations: ConditionEvaluationItemJson[], children: T[]) => T,
): T {
  const c = nodes[0].tree.condition;
  const children = nodes[0].tree.subconditions.map((_, i) =>
    build(
      nodes.map((n) => ({ pullRequest: n.pullRequest, tree: n.tree.subconditions[i] })),
      make,
    ),
  );
  return make(
    c,
    nodes.every((n) => n.tree.match === true),
    nodes.map((n) => item(n.pullRequest, n.tree)),
    children,
  );
}

/**
 * queue.proto `ConditionsEvaluation` of an evaluated tree.
 * @param input one tree (with `pullRequest` for its evaluation item), or one tree per pull request
 *   of a batch, all evaluated from the same conditions
 * @throws RangeError when given an empty list
 */
export function conditionsEvaluationJson(
  input: EvaluatedCondition | PerPull[],
  pullRequest?: number,
): ConditionsEvaluationJson {
  const nodes = normalise(input, pullRequest);
  if (nodes.length === 0) throw new RangeError("conditionsEvaluationJson needs at least one evaluated tree");
  return build<ConditionsEvaluationJson>(nodes, (c, match, evaluations, subconditions) => ({
    match,
    label: conditionLabel(c),
    description: c.description ?? "",
    documentation_url: documentationUrl(c),
    schedule: scheduleOf(c),
    subconditions,
    evaluations,
  }));
}

/** events.proto `ConditionEvaluation` of an evaluated tree (same inputs as conditionsEvaluationJson). */
export function conditionEvaluationEventJson(
  input: EvaluatedCondition | PerPull[],
  pullRequest?: number,
): ConditionEvaluationEventJson {
  const nodes = normalise(input, pullRequest);
  if (nodes.length === 0) throw new RangeError("conditionEvaluationEventJson needs at least one evaluated tree");
  return build<ConditionEvaluationEventJson>(nodes, (c, match, evaluations, subconditions) => ({
    match,
    label: conditionLabel(c),
    is_label_user_input: c.kind === "leaf",
    description: c.description ?? null,
    attribute_name: c.kind === "leaf" ? c.attribute : null,
    operator: c.kind === "leaf" ? c.operator : null,
    schedule: scheduleOf(c),
    subconditions,
    evaluations,
  }));
}
