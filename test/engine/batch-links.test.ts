/**
 * Scenario tests of the batch a queue event points to (SPEC "Leave metadata", checks_start
 * `previous_batch_*`): a pull request leaving from a batch names that batch, also when the batch
 * concluded (culprit, timeout, bisection, resolution attempts) or it was held by a bisection; a
 * check that starts again names the batch it was checked in just before, whatever ended that check.
 */
import { describe, expect, it } from "vitest";
import type { EngineEffect } from "../../services/engine/index.js";
import { batchOf, configuration, QueueHarness, queueRule } from "./fixtures.js";

type Log = Extract<EngineEffect, { kind: "log" }>;
const logsOf = (effects: EngineEffect[], type: string) =>
  effects.filter((e): e is Log => e.kind === "log" && e.type === type);

/** Each leave as "#n CODE batch [scopes] all_scopes", the batch by name ("-" for null). */
function leaves(h: QueueHarness, effects: EngineEffect[] = h.history): string[] {
  return logsOf(effects, "action.queue.leave").map((l) => {
    const m = l.metadata;
    const batch = m.batch_id === null ? "-" : h.nameOf(String(m.batch_id));
    return `#${l.pullRequest} ${m.dequeue_code} ${batch} ${JSON.stringify(m.scopes)} ${m.all_scopes}`;
  });
}

/** Each checks_start as "#n batch after previous: start_reason" ("-" for no previous batch). */
function starts(h: QueueHarness, effects: EngineEffect[] = h.effects): string[] {
  return logsOf(effects, "action.queue.checks_start").map((l) => {
    const m = l.metadata;
    const previous = m.previous_batch_id === null ? "-" : h.nameOf(String(m.previous_batch_id));
    if (m.previous_batch_id !== null && m.previous_batch_name !== previous)
      throw new Error(`previous_batch_name ${String(m.previous_batch_name)} for ${previous}`);
    if (m.previous_batch_id === null && m.previous_batch_name !== null)
      throw new Error("previous_batch_name without previous_batch_id");
    return `#${l.pullRequest} ${m.batch_name} after ${previous}: ${m.start_reason}`;
  });
}

describe("leave metadata of a pull request leaving from a batch", () => {
  it("names the culprit's batch (CHECKS_FAILED) and the timed-out batch (CHECKS_TIMEOUT)", () => {
    const h = new QueueHarness(
      configuration({ rules: [queueRule({ checks_timeout: 3600 })], mergeQueue: { max_parallel_checks: 2 } }),
    );
    h.queue(1);
    h.queue(2);
    h.created("Batch 1", 101);
    h.created("Batch 2", 102);
    h.at(30).ci("Batch 1", false);
    h.created("Batch 2", 103);
    h.at(100).send({
      type: "timer_fired",
      key: Object.keys(h.state.timers).find((k) => k.startsWith("checks-timeout/"))!,
    });
    expect(leaves(h)).toEqual(["#1 CHECKS_FAILED Batch 1 [] false", "#2 CHECKS_TIMEOUT Batch 2 [] false"]);
  });

  it("names the bisected batch for the candidate dropped by elimination", () => {
    const h = new QueueHarness(
      configuration({
        rules: [queueRule({ batch_size: batchOf(3), batch_max_wait_time: 600 })],
        mergeQueue: { max_parallel_checks: 2 },
      }),
    );
    for (const n of [1, 2, 3]) h.queue(n);
    h.created("Batch 1", 101);
    h.at(30).ci("Batch 1", false);
    h.created("Sub-batch 1.1", 111);
    h.created("Sub-batch 1.2", 112);
    h.at(60).ci("Sub-batch 1.1", true);
    h.at(61).ci("Sub-batch 1.2", true);
    h.mergeRequested();
    expect(leaves(h)).toEqual([
      "#3 DROPPED_BY_BISECTION_ELIMINATION Batch 1 [] false",
      "#1 PR_MERGED Sub-batch 1.1 [] false",
      "#2 PR_MERGED Sub-batch 1.2 [] false",
    ]);
  });

  it("names the failing sub-batch of a confirmed culprit, and the bisected batch of a held candidate dequeued meanwhile", () => {
    const h = new QueueHarness(
      configuration({
        rules: [queueRule({ batch_size: batchOf(4), batch_max_wait_time: 600 })],
        mergeQueue: { max_parallel_checks: 3 },
      }),
    );
    for (const n of [1, 2, 3, 4]) h.queue(n);
    h.created("Batch 1", 101);
    h.at(30).ci("Batch 1", false);
    h.created("Sub-batch 1.1", 111);
    h.created("Sub-batch 1.2", 112);
    h.at(40).send({ type: "dequeue_requested", number: 4, trigger: "@ada", source: "api" });
    expect(leaves(h, h.effects)).toEqual(["#4 PR_MANUALLY_DEQUEUED Batch 1 [] false"]);
    h.at(60).ci("Sub-batch 1.1", true);
    h.at(61).ci("Sub-batch 1.2", false);
    expect(leaves(h, h.effects)).toEqual(["#2 CHECKS_FAILED Sub-batch 1.2 [] false"]);
  });

  it("names the failed batch when batch_max_failure_resolution_attempts is 0", () => {
    const h = new QueueHarness(
      configuration({
        rules: [
          queueRule({ batch_size: batchOf(2), batch_max_wait_time: 600, batch_max_failure_resolution_attempts: 0 }),
        ],
      }),
    );
    h.queue(1);
    h.queue(2);
    h.created("Batch 1");
    h.at(30).ci("Batch 1", false);
    expect(leaves(h)).toEqual([
      "#1 BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS Batch 1 [] false",
      "#2 BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS Batch 1 [] false",
    ]);
  });

  it("names the failing sub-batch, else the bisected batch, when the resolution attempts run out", () => {
    const h = new QueueHarness(
      configuration({
        rules: [
          queueRule({ batch_size: batchOf(4), batch_max_wait_time: 600, batch_max_failure_resolution_attempts: 1 }),
        ],
        mergeQueue: { max_parallel_checks: 2 },
      }),
    );
    for (const n of [1, 2, 3, 4]) h.queue(n);
    h.created("Batch 1");
    h.at(30).ci("Batch 1", false);
    h.created("Sub-batch 1.1");
    h.created("Sub-batch 1.2");
    h.at(60).ci("Sub-batch 1.1", false);
    expect(leaves(h)).toEqual([
      "#1 BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS Sub-batch 1.1 [] false",
      "#2 BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS Sub-batch 1.1 [] false",
      "#3 BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS Batch 1 [] false",
      "#4 BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS Batch 1 [] false",
    ]);
  });

  it("names the batch of a pull request whose partition is removed", () => {
    const h = new QueueHarness(
      configuration({ mergeQueue: { max_parallel_checks: 2 }, partitions: ["backend", "frontend"] }),
    );
    h.queue(1, { partitions: ["frontend"] });
    h.queue(2, { partitions: ["backend"] });
    h.created("Batch 1", 101);
    h.at(5).send({
      type: "configuration_changed",
      config: configuration({ mergeQueue: { max_parallel_checks: 2 }, partitions: ["backend"] }),
    });
    expect(leaves(h, h.effects)).toEqual(["#1 PR_DEQUEUED_FROM_PARTITION Batch 1 [] false"]);
  });
});

describe("checks_start previous batch on restarts", () => {
  it("names the same batch for a retry and for a batch rechecked without a failed batch ahead", () => {
    const h = new QueueHarness(
      configuration({ rules: [queueRule({ max_checks_retries: 1 })], mergeQueue: { max_parallel_checks: 2 } }),
    );
    h.queue(1);
    h.queue(2);
    h.created("Batch 1", 101);
    expect(starts(h)).toEqual(["#1 Batch 1 after -: First time checking"]);
    h.created("Batch 2", 102);
    h.at(30).ci("Batch 1", false);
    h.created("Batch 1", 103);
    expect(starts(h)).toEqual(["#1 Batch 1 after Batch 1: Retry 1 of 1 after a failure"]);
    h.at(31).ci("Batch 1", false);
    h.created("Batch 2", 104);
    expect(starts(h)).toEqual(["#2 Batch 2 after Batch 2: Rechecked without Batch 1, which failed"]);
  });

  it("names the bisected batch for its sub-batches and its re-embarked candidate, and the sub-batch for the others", () => {
    const h = new QueueHarness(
      configuration({
        rules: [queueRule({ batch_size: batchOf(4), batch_max_wait_time: 600 })],
        mergeQueue: { max_parallel_checks: 3 },
      }),
    );
    for (const n of [1, 2, 3, 4, 5]) h.queue(n);
    h.created("Batch 1", 101);
    h.at(30).ci("Batch 1", false);
    h.created("Sub-batch 1.1", 111);
    expect(starts(h)).toEqual([
      "#1 Sub-batch 1.1 after Batch 1: Bisection of Batch 1: checking a prefix of the failed batch",
    ]);
    h.created("Sub-batch 1.2", 112);
    h.created("Sub-batch 1.3", 113);
    h.at(60).ci("Sub-batch 1.1", true);
    h.at(61).ci("Sub-batch 1.2", false);
    h.created("Batch 3", 106);
    expect(starts(h)).toEqual([
      "#1 Batch 3 after Sub-batch 1.1: Re-embarked after Sub-batch 1.1 passed",
      "#3 Batch 3 after Sub-batch 1.3: Re-embarked after Sub-batch 1.3 stopped",
      "#4 Batch 3 after Batch 1: Re-embarked after Batch 1 failed",
    ]);
  });

  it("names the batch of the last check, not a batch stopped before its check started", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 2 } }));
    h.queue(1);
    h.queue(2);
    h.created("Batch 1", 101);
    h.created("Batch 2", 102);
    h.at(10).send({ type: "dequeue_requested", number: 1, trigger: "@ada", source: "api" });
    expect(h.lines(["create_speculative_check"])).toEqual(["create Batch 3 [2] ahead []"]);
    // Batch 3 stops while its draft is being created: #2 was never checked in it.
    h.at(11).send({ type: "pause", reason: "release" });
    h.at(12).send({ type: "unpause" });
    h.created("Batch 4", 104);
    expect(starts(h)).toEqual(["#2 Batch 4 after Batch 2: Re-embarked after Batch 2 stopped"]);
  });
});
