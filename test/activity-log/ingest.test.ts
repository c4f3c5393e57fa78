/**
 * Ingest through AppendEvents (issue "Activity log" §1; docs/activity-log.md "Ingest"), against real
 * PostgreSQL (the outbox) and the embedded ClickHouse: every one of the 47 types is accepted with
 * its sample metadata and comes back from /logs as sent, with service-assigned ids, the derived
 * outcome and batch pull request number; an invalid event refuses the whole request naming its
 * index and field, and nothing of that request is written; a re-delivered batch is not duplicated.
 */
import { create, type JsonObject } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code, type ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppendEventsRequestSchema } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { Outcome } from "../../gen/yardmaster/v1/events_pb.js";
import { batchPullOf, checkEvent, EVENT_TYPES, outcomeOf } from "../../services/activity-log/index.js";
import { isInvalidArgumentError, domainErrorToConnect } from "../../services/contracts/index.js";
import { outboxSize } from "../../services/store/index.js";
import { METADATA_BUILDERS } from "./event-samples.js";
import { UUID_A } from "./event-samples-shared.js";
import { startLogHarness, type AppendInput, type LogHarness } from "./log-harness.js";

const T = Date.UTC(2026, 10, 22, 10);
let h: LogHarness;
beforeAll(async () => {
  h = await startLogHarness("embedded", () => new Date(T + 3_600_000));
});
afterAll(async () => {
  await h?.close();
});

const TYPES = [...EVENT_TYPES.keys()];
const input = (type: string, repository: string, i = 0, metadata = METADATA_BUILDERS[type]()): AppendInput => ({
  type,
  repository,
  pullRequest: BigInt(100 + i),
  baseRef: "main",
  trigger: "Rule: automatic merge",
  receivedAtMs: T + i,
  metadata,
});
let keys = 0;
const request = (events: AppendInput[], key = `ingest-${++keys}`) =>
  create(AppendEventsRequestSchema, {
    idempotencyKey: key,
    events: events.map((e) => ({
      type: e.type,
      repository: e.repository,
      pullRequest: e.pullRequest ?? undefined,
      baseRef: e.baseRef ?? undefined,
      trigger: e.trigger,
      receivedAt: timestampFromMs(e.receivedAtMs),
      metadata: e.metadata as JsonObject,
    })),
  });
const append = async (events: AppendInput[], key?: string) =>
  h.service.appendEvents(request(events, key), undefined as never);
/** The field violations of an INVALID_ARGUMENT error (the error itself otherwise, so a wrong error shows in the diff). */
const violationsOf = (e: unknown) => (isInvalidArgumentError(e) ? e.violations : e);
async function stored(repository: string): Promise<number> {
  const rs = await h.clickhouse.query({
    query: "SELECT count() AS n FROM events WHERE repository = {r:String}",
    query_params: { r: repository },
    format: "JSONEachRow",
  });
  return Number((await rs.json<{ n: string }>())[0].n);
}

describe("sample metadata", () => {
  it("has a named builder for each of the 47 event types", () => {
    expect(Object.keys(METADATA_BUILDERS).sort()).toEqual([...TYPES].sort());
    expect(TYPES).toHaveLength(47);
  });
  it.each(TYPES)("%s: the sample is valid", (type) => {
    expect(checkEvent({ ...input(type, "acme/widgets"), receivedAt: new Date(T) }, "events[0]")).toEqual([]);
  });
});

describe("AppendEvents", () => {
  it("stores an event of each of the 47 types; /logs returns each as sent, with the derived outcome", async () => {
    const events = TYPES.map((t, i) => input(t, "acme/all-types", i));
    const ids = await h.append(events);
    expect(ids).toHaveLength(47);
    expect(new Set(ids).size).toBe(47);
    expect([...ids].sort((a, b) => (a < b ? -1 : 1))).toEqual(ids);
    const { response } = await h.list({
      owner: "acme",
      repository: "all-types",
      perPage: 100,
      receivedFrom: timestampFromMs(T),
      receivedTo: timestampFromMs(T + 60_000),
    });
    expect(response.size).toBe(47);
    const byId = new Map(response.events.map((e) => [e.id, e]));
    events.forEach((e, i) => {
      const got = byId.get(ids[i])!;
      expect({
        type: got.type,
        pullRequest: got.pullRequest,
        baseRef: got.baseRef,
        trigger: got.trigger,
        metadata: got.metadata,
        outcome: Outcome[got.outcome],
      }).toEqual({
        type: e.type,
        pullRequest: e.pullRequest,
        baseRef: "main",
        trigger: e.trigger,
        metadata: e.metadata,
        outcome: outcomeOf(e.type, e.metadata),
      });
    });
  });

  it("records each lifecycle event under its batch pull request number", async () => {
    const repo = "acme/batch-pulls";
    const start = METADATA_BUILDERS["action.queue.checks_start"]({
      speculative_check_pull_request: {
        ...(METADATA_BUILDERS["action.queue.checks_start"]().speculative_check_pull_request as object),
        number: 501,
      },
    });
    const bisection = METADATA_BUILDERS["action.queue.batch_bisection_start"]({ batch_pull_request: 502 });
    const unknown = METADATA_BUILDERS["action.queue.batch_bisection_end"]({ batch_pull_request: null });
    await h.append([
      input("action.queue.checks_start", repo, 0, start),
      input("action.queue.batch_bisection_start", repo, 1, bisection),
      input("action.queue.batch_bisection_end", repo, 2, unknown),
      input("action.label", repo, 3),
    ]);
    expect([
      batchPullOf("action.queue.checks_start", start),
      batchPullOf("action.queue.batch_bisection_start", bisection),
      batchPullOf("action.queue.batch_bisection_end", unknown),
    ]).toEqual(["501", "502", null]);
    const agg = await h.aggregate({
      owner: "acme",
      repository: "batch-pulls",
      receivedFrom: timestampFromMs(T),
      receivedTo: timestampFromMs(T + 60_000),
    });
    expect(agg.byBatchPullRequest.map((f) => [f.value, Number(f.count)])).toEqual([
      ["501", 1],
      ["502", 1],
    ]);
    const { response } = await h.list({
      owner: "acme",
      repository: "batch-pulls",
      batchPull: [502n],
      receivedFrom: timestampFromMs(T),
      receivedTo: timestampFromMs(T + 60_000),
    });
    expect(response.events.map((e) => e.type)).toEqual(["action.queue.batch_bisection_start"]);
  });

  const at2 = (field: string) => `events[2].${field}`;
  it.each([
    ["an unknown type", { type: "action.teleport" }, at2("type"), 'unknown event type "action.teleport"'],
    [
      "a repository without owner",
      { repository: "widgets" },
      at2("repository"),
      'must be "owner/repository" (owner: 1-40 letters, digits or hyphens; repository: 1-100 letters, digits, "_", "." or "-")',
    ],
    ["a negative pull request", { pullRequest: -1n }, at2("pull_request"), "must be between 0 and 9223372036854775807"],
    ["an empty trigger", { trigger: "" }, at2("trigger"), "is required"],
    [
      "a received_at beyond what the log holds",
      { receivedAtMs: Date.UTC(2400, 0, 1) },
      at2("received_at"),
      "must be between 1900-01-01T00:00:00Z and 2299-01-01T00:00:00Z",
    ],
    [
      "a missing metadata field",
      { metadata: (({ queue_name: _, ...m }) => m)(METADATA_BUILDERS["action.queue.enter"]()) },
      at2("metadata.queue_name"),
      "is required",
    ],
    [
      "null in a non-nullable field",
      { metadata: METADATA_BUILDERS["action.queue.enter"]({ branch: null }) },
      at2("metadata.branch"),
      "must not be null",
    ],
    [
      "an unknown metadata field",
      { metadata: METADATA_BUILDERS["action.queue.enter"]({ colour: "red" }) },
      at2("metadata.colour"),
      "unknown field (not in yardmaster.v1.ActionQueueEnterMetadata)",
    ],
    [
      "a bad UUID",
      { metadata: METADATA_BUILDERS["action.queue.enter"]({ session_id: "session-1" }) },
      at2("metadata.session_id"),
      expect.stringContaining("UUID"),
    ],
    [
      "a date without offset",
      { metadata: METADATA_BUILDERS["action.queue.enter"]({ queued_at: "2026-11-22T10:00:00" }) },
      at2("metadata.queued_at"),
      "must be an RFC 3339 date-time with a UTC offset, e.g. 2026-11-22T10:00:00Z",
    ],
    [
      "train_car_id different from batch_id",
      {
        type: "action.queue.checks_end",
        metadata: METADATA_BUILDERS["action.queue.checks_end"]({ train_car_id: UUID_A }),
      },
      at2("metadata.train_car_id"),
      "must equal batch_id (deprecated alias of it)",
    ],
    [
      "a bad nested value",
      {
        type: "action.queue.checks_end",
        metadata: METADATA_BUILDERS["action.queue.checks_end"]({
          unsuccessful_checks: [{ name: "ci", description: "", url: null, state: "broken", avatar_url: null }],
        }),
      },
      at2("metadata.unsuccessful_checks[0].state"),
      expect.stringContaining("must be one of"),
    ],
  ])(
    "refuses %s, naming the event and field, and writes nothing of the request",
    async (_name, change, field, description) => {
      const repo = `acme/refused-${++keys}`;
      const events = [
        input("action.queue.enter", repo, 0),
        input("action.label", repo, 1),
        { ...input("action.queue.enter", repo, 2), ...(change as Partial<AppendInput>) },
      ];
      const key = `refused-${keys}`;
      const before = await outboxSize(h.db.pool);
      const err = await append(events, key).then(
        () => null,
        (e: unknown) => e,
      );
      expect(violationsOf(err)).toEqual([{ field, description }]);
      expect((err as ConnectError).code).toBe(Code.InvalidArgument);
      expect(await outboxSize(h.db.pool)).toBe(before);
      await h.relay.drain();
      expect(await stored(repo)).toBe(0);
      // The key was not consumed: the corrected request is written under it.
      const ok = await append(events.slice(0, 2), key);
      expect(ok.replayed).toBe(false);
    },
  );

  it("reports every violation of every event", async () => {
    const events = [
      input("action.queue.enter", "acme/many", 0, { queue_name: 1 }),
      input("action.nope", "acme/many", 1, {}),
    ];
    const err = await append(events).then(
      () => null,
      (e: unknown) => e,
    );
    expect(violationsOf(err)).toEqual([
      { field: "events[0].metadata.queue_name", description: "must be a string, not number" },
      { field: "events[0].metadata.branch", description: "is required" },
      { field: "events[0].metadata.queued_at", description: "is required" },
      { field: "events[0].metadata.priority_rule_name", description: "is required" },
      { field: "events[0].metadata.session_id", description: "is required" },
      { field: "events[1].type", description: 'unknown event type "action.nope"' },
    ]);
  });

  it.each([
    ["no events", 0],
    ["more than 10,000 events", 10_001],
  ])("refuses a request with %s", async (_name, n) => {
    const events = Array.from({ length: n }, (_, i) => input("action.label", "acme/size", i));
    const err = await append(events).then(
      () => null,
      (e: unknown) => e,
    );
    expect(violationsOf(err)).toEqual([{ field: "events", description: "must hold 1 to 10000 events" }]);
  });

  it("does not duplicate a re-delivered batch: same ids, replayed, stored once", async () => {
    const events = [input("action.label", "acme/redelivered", 0), input("action.comment", "acme/redelivered", 1)];
    const first = await append(events, "redelivery-1");
    const again = await append(events, "redelivery-1");
    expect(first.replayed).toBe(false);
    expect(again).toMatchObject({ ids: first.ids, replayed: true });
    await h.relay.drain();
    expect(await stored("acme/redelivered")).toBe(2);
  });

  it("refuses a key reused for other events with ALREADY_EXISTS (409)", async () => {
    await append([input("action.label", "acme/reused", 0)], "reused-1");
    const err = await append([input("action.comment", "acme/reused", 0)], "reused-1").then(
      () => null,
      (e: unknown) => e,
    );
    // As the gateway answers it (contracts/domain-error.ts: the one mapping).
    expect(domainErrorToConnect(err)?.code).toBe(Code.AlreadyExists);
  });
});
