/**
 * The engine's contract at its edge: bad events are refused with an error naming the field and
 * leave the state untouched; `apply` is pure and deterministic; ids are UUIDs derived from
 * counters; every log effect's metadata is exactly events.proto (strict validator).
 */
import { describe, expect, it } from "vitest";
import { apply, createState, deterministicUuid, EngineInputError, UUID_PATTERN } from "../../services/engine/index.js";
import { configuration, queuedPull, QueueHarness, T0 } from "./fixtures.js";
import { logProblems } from "./invariants.js";

describe("event validation", () => {
  const state = createState("acme/app", configuration());
  const cases: [string, unknown, string][] = [
    ["not an object", 42, "an event must be an object"],
    ["an unknown type", { type: "explode" }, 'type: unknown event type "explode"'],
    [
      "a bad head SHA",
      { type: "pull_request_queued", trigger: "x", pull: { ...queuedPull(1), headSha: "not-a-sha" } },
      "pull.headSha: must be a hexadecimal commit SHA",
    ],
    ["a negative number", { type: "pull_request_closed", number: -3 }, "number:"],
    [
      "a priority out of range",
      { type: "pull_request_queued", trigger: "x", pull: { ...queuedPull(1), priority: 20000 } },
      "pull.priority:",
    ],
    [
      "an unknown queue rule",
      { type: "pull_request_queued", trigger: "x", pull: queuedPull(1, { queueRule: "nope" }) },
      'pull.queueRule: unknown queue rule "nope"; configured: default',
    ],
    ["a pause reason too long", { type: "pause", reason: "x".repeat(256) }, "reason:"],
    [
      "check results without a truth value",
      { type: "check_results", checkId: "c", conditions: "maybe", checks: [] },
      "conditions:",
    ],
  ];
  it.each(cases)("refuses %s, naming the field, and changes nothing", (_name, event, message) => {
    const before = structuredClone(state);
    expect(() => apply(state, event, T0)).toThrow(EngineInputError);
    expect(() => apply(state, event, T0)).toThrow(message);
    expect(state).toEqual(before);
  });

  it("refuses a time that is not epoch milliseconds", () => {
    expect(() => apply(state, { type: "pull_request_closed", number: 1 }, Number.NaN)).toThrow(
      "now: must be a time in epoch milliseconds",
    );
  });
});

describe("purity and determinism", () => {
  it("does not modify the state it is given, and the same events give the same states and effects", () => {
    const run = () => {
      const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 2 } }));
      h.queue(1);
      const snapshot = structuredClone(h.state);
      h.queue(2);
      h.created("Batch 1", 101);
      h.ci("Batch 1", false);
      return { h, snapshot };
    };
    const a = run();
    const b = run();
    expect(b.h.state).toEqual(a.h.state);
    expect(b.h.history).toEqual(a.h.history);
    const replay = apply(
      a.snapshot,
      { type: "pull_request_queued", pull: queuedPull(2), trigger: "Rule: automatic" },
      T0,
    );
    expect(replay.state).not.toBe(a.snapshot);
    expect(JSON.parse(JSON.stringify(replay.state))).toEqual(replay.state);
  });

  it("derives UUIDs from the repository, a kind and a counter", () => {
    const id = deterministicUuid("acme/app", "batch", 1);
    expect(id).toMatch(UUID_PATTERN);
    expect(id).toBe(deterministicUuid("acme/app", "batch", 1));
    expect(
      new Set([
        id,
        deterministicUuid("acme/app", "batch", 2),
        deterministicUuid("acme/other", "batch", 1),
        deterministicUuid("acme/app", "session", 1),
      ]).size,
    ).toBe(4);
  });
});

describe("log metadata", () => {
  it("every log effect of a busy scenario is exactly the events.proto message of its type", () => {
    const h = new QueueHarness(
      configuration({
        rules: [{ ...configuration().queue_rules[0]!, batch_size: { min: 3, max: 3 }, batch_max_wait_time: 600 }],
        mergeQueue: { max_parallel_checks: 2 },
      }),
    );
    for (const n of [1, 2, 3, 4]) h.queue(n);
    h.created("Batch 1", 101);
    h.at(30).ci("Batch 1", false);
    h.created("Sub-batch 1.1", 111);
    h.created("Sub-batch 1.2", 112);
    h.at(60).ci("Sub-batch 1.1", true);
    h.at(61).ci("Sub-batch 1.2", true);
    h.send({ type: "dequeue_requested", number: 4, trigger: "@ada", source: "api" });
    h.created("Batch 4", 106);
    h.ci("Batch 4", true);
    h.mergeRequested();
    const logs = h.history.filter((e) => e.kind === "log");
    expect(new Set(logs.map((l) => l.kind === "log" && l.type))).toEqual(
      new Set([
        "action.queue.enter",
        "action.queue.change",
        "action.queue.checks.change",
        "action.queue.checks_start",
        "action.queue.checks_end",
        "action.queue.batch_bisection_start",
        "action.queue.batch_bisection_end",
        "action.queue.leave",
        "action.queue.merged",
        "action.dequeue",
      ]),
    );
    expect(logs.flatMap((l) => (l.kind === "log" ? logProblems(l) : []))).toEqual([]);
    const start = logs.find((l) => l.kind === "log" && l.type === "action.queue.checks_start");
    expect(start?.kind === "log" && start.metadata).toMatchObject({
      batch_name: "Batch 1",
      speculative_check_pull_request: { number: 101, in_place: false },
      pull_request_numbers: [1, 2, 3],
    });
  });
});
