/**
 * The leave event's `conditions_evaluation` (docs/events.md "Leave"): the conditions last
 * evaluated for the pull request — the merge conditions of its check when that failed, its queue
 * conditions when they stopped matching — as events.proto `ConditionEvaluation`, valid for the
 * activity log's strict validator; null when nothing was evaluated.
 */
import { describe, expect, it } from "vitest";
import type { LogEffect } from "../../services/engine/index.js";
import {
  conditionEvaluationEventJson,
  evaluateConditions,
  parseConditionList,
  type Condition,
} from "../../services/config/index.js";
import { checkRun, contextFor, pullRequest } from "../config/builders.js";
import { batchOf, configuration, QueueHarness, queueRule } from "./fixtures.js";
import { logProblems } from "./invariants.js";

function evaluated(
  conditions: unknown[],
  number: number,
  checks = [checkRun("ci", "failure")],
): Record<string, unknown> {
  const parsed = parseConditionList(conditions);
  if (parsed.conditions === null || parsed.conditions === true) throw new Error(JSON.stringify(parsed.issues));
  return conditionEvaluationEventJson(
    evaluateConditions(parsed.conditions as Condition[], contextFor(pullRequest({ number, checks }))),
    number,
  ) as unknown as Record<string, unknown>;
}

const leaveOf = (effects: { kind: string }[], number: number) =>
  effects.find(
    (e): e is LogEffect =>
      e.kind === "log" && (e as LogEffect).type === "action.queue.leave" && (e as LogEffect).pullRequest === number,
  )!;

describe("conditions_evaluation of action.queue.leave", () => {
  it("is the failed check's merge conditions for the culprit", () => {
    const h = new QueueHarness(
      configuration({ rules: [queueRule({ batch_size: batchOf(1), batch_max_wait_time: 0 })] }),
    );
    h.queue(1);
    h.created("Batch 1", 101);
    const evaluation = evaluated(["check-success=ci"], 1);
    const effects = h.at(30).send({
      type: "check_results",
      checkId: h.batch("Batch 1").batch.check!.id,
      conditions: false,
      checks: [{ name: "ci", description: "tests", url: null, state: "failure", avatar_url: null }],
      evaluations: { "1": evaluation },
    });
    const leave = leaveOf(effects, 1);
    expect(leave.metadata.dequeue_code).toBe("CHECKS_FAILED");
    expect(leave.metadata.conditions_evaluation).toEqual(evaluation);
    expect(leave.metadata.conditions_evaluation).toMatchObject({
      match: false,
      subconditions: [{ label: "check-success = ci", match: false, attribute_name: "check-success" }],
    });
    expect(logProblems(leave)).toEqual([]);
  });

  it("is the queue conditions that stopped matching for a pull request dequeued by them, and null before any evaluation", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 1 } }));
    h.queue(1);
    h.queue(2);
    const evaluation = evaluated(["label=ready"], 2);
    const dequeued = leaveOf(h.send({ type: "queue_conditions_evaluated", number: 2, result: false, evaluation }), 2);
    expect(dequeued.metadata.dequeue_code).toBe("PR_DEQUEUED");
    expect(dequeued.metadata.conditions_evaluation).toEqual(evaluation);
    expect(logProblems(dequeued)).toEqual([]);
    const manual = leaveOf(h.send({ type: "dequeue_requested", number: 1, trigger: "API", source: "api" }), 1);
    expect(manual.metadata.conditions_evaluation).toBeNull();
  });
});
