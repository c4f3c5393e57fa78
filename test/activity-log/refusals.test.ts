/**
 * Every refusal of `/logs` and `/logs/aggregate` (docs/activity-log.md "Filters",
 * docs/errors.md): INVALID_ARGUMENT (REST 422) naming the parameter, for both RPCs where the parameter
 * exists; the deprecated event type alias is accepted; cursors are refused when altered or
 * presented with another repository, other filters, another window or another service secret.
 * (Dates given as Unix timestamps or without offset never reach the service: the REST transcoder
 * refuses them, see test/e2e/activity-log.test.ts.)
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ListLogsRequestSchema } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { Outcome } from "../../gen/yardmaster/v1/events_pb.js";
import { createActivityLogService } from "../../services/activity-log/index.js";
import { isInvalidArgumentError } from "../../services/contracts/index.js";
import { METADATA_BUILDERS } from "./event-samples.js";
import { linkCursor, startLogHarness, type AggregateInit, type ListInit, type LogHarness } from "./log-harness.js";

const T = Date.UTC(2026, 10, 22, 10);
let h: LogHarness;
let cursor: string;
const base = { owner: "acme", repository: "refusals" };
const window = { receivedFrom: timestampFromMs(T - 60_000), receivedTo: timestampFromMs(T + 60_000) };

beforeAll(async () => {
  h = await startLogHarness("embedded", () => new Date(T + 1000));
  const event = (type: string, i: number, repository = "acme/refusals") => ({
    type,
    repository,
    pullRequest: 7n,
    baseRef: "main",
    trigger: "API",
    receivedAtMs: T + i,
    metadata: METADATA_BUILDERS[type](),
  });
  await h.append([
    event("action.queue.checks_postponed", 0),
    event("action.label", 1),
    event("action.label", 2),
    event("action.label", 3, "acme/other"),
  ]);
  cursor = linkCursor((await h.list({ ...base, perPage: 1 })).link, "next")!;
});
afterAll(async () => {
  await h?.close();
});

const violationsOf = (e: unknown) => (isInvalidArgumentError(e) ? e.violations : e);
const listRefusal = (init: ListInit & object) => h.list(init).then(() => "accepted", violationsOf);
const aggregateRefusal = (init: AggregateInit & object) => h.aggregate(init).then(() => "accepted", violationsOf);

describe("filters refused by /logs and /logs/aggregate", () => {
  it.each([
    [
      "pull_request with not_pull_request",
      { pullRequest: [1n], notPullRequest: [2n] },
      "not_pull_request",
      "cannot be combined with pull_request (the two are mutually exclusive)",
    ],
    [
      "batch_pull with not_batch_pull",
      { batchPull: [1n], notBatchPull: [2n] },
      "not_batch_pull",
      "cannot be combined with batch_pull (the two are mutually exclusive)",
    ],
    [
      "event_type with not_event_type",
      { eventType: ["action.label"], notEventType: ["action.merge"] },
      "not_event_type",
      "cannot be combined with event_type (the two are mutually exclusive)",
    ],
    [
      "outcome with not_outcome",
      { outcome: [Outcome.success], notOutcome: [Outcome.failure] },
      "not_outcome",
      "cannot be combined with outcome (the two are mutually exclusive)",
    ],
    [
      "trigger with not_trigger",
      { trigger: ["API"], notTrigger: ["@ada"] },
      "not_trigger",
      "cannot be combined with trigger (the two are mutually exclusive)",
    ],
    [
      "an unknown event_type",
      { eventType: ["action.label", "action.teleport"] },
      "event_type",
      'unknown event type "action.teleport"',
    ],
    [
      "an unknown not_event_type",
      { notEventType: ["queue.paused"] },
      "not_event_type",
      'unknown event type "queue.paused"',
    ],
    [
      "an unspecified outcome (gRPC 0)",
      { outcome: [Outcome.OUTCOME_UNSPECIFIED] },
      "outcome",
      "must be one of success, failure, pending, neutral",
    ],
    [
      "a negative pull_request",
      { pullRequest: [-1n] },
      "pull_request",
      "must be an integer between 0 and 9223372036854775807",
    ],
    [
      "a negative not_batch_pull",
      { notBatchPull: [-5n] },
      "not_batch_pull",
      "must be an integer between 0 and 9223372036854775807",
    ],
    [
      "a window whose start is after its end",
      { receivedFrom: timestampFromMs(T), receivedTo: timestampFromMs(T - 1) },
      "received_from",
      "must not be after received_to",
    ],
    [
      "a start after the default end (now)",
      { receivedFrom: timestampFromMs(T + 3_600_000) },
      "received_from",
      "must not be after received_to",
    ],
  ])("%s", async (_name, filters, field, description) => {
    expect(await listRefusal({ ...base, ...filters })).toEqual([{ field, description }]);
    expect(await aggregateRefusal({ ...base, ...filters })).toEqual([{ field, description }]);
  });

  it.each([[0], [101], [-3]])("refuses per_page %i", async (perPage) => {
    expect(await listRefusal({ ...base, perPage })).toEqual([
      { field: "per_page", description: "must be between 1 and 100" },
    ]);
  });

  it.each([[1], [100]])("accepts per_page %i", async (perPage) => {
    expect((await h.list({ ...base, perPage })).response.perPage).toBe(perPage);
  });

  it("defaults per_page to 10", async () => {
    expect((await h.list(base)).response.perPage).toBe(10);
  });

  it("accepts action.queue.checks_not_started as action.queue.checks_postponed, including and excluding", async () => {
    const types = async (init: object) =>
      (await h.list({ ...base, ...window, ...init })).response.events.map((e) => e.type);
    expect(await types({ eventType: ["action.queue.checks_not_started"] })).toEqual(["action.queue.checks_postponed"]);
    expect(await types({ notEventType: ["action.queue.checks_not_started"] })).toEqual([
      "action.label",
      "action.label",
    ]);
    const agg = await h.aggregate({ ...base, ...window, eventType: ["action.queue.checks_not_started"] });
    expect(agg.byEventType.map((f) => f.value)).toEqual(["action.queue.checks_postponed"]);
  });
});

describe("cursors", () => {
  const tamper = (c: string, at: number) => c.slice(0, at) + (c[at] === "A" ? "B" : "A") + c.slice(at + 1);
  const refused = [
    {
      field: "cursor",
      description:
        "is not a cursor issued for this repository and these filters (it was altered, or comes from another listing)",
    },
  ];

  it("follows an untouched cursor", async () => {
    expect((await h.list({ ...base, perPage: 1, cursor })).response.size).toBe(1);
  });

  it.each([
    ["its position altered", () => tamper(cursor, 3), base],
    ["its signature altered", () => tamper(cursor, cursor.length - 2), base],
    ["garbage", () => "not-a-cursor", base],
    ["empty", () => "", base],
    ["another repository", () => cursor, { owner: "acme", repository: "other" }],
    ["other filters", () => cursor, { ...base, trigger: ["API"] }],
    ["an event type filter added", () => cursor, { ...base, eventType: ["action.label"] }],
  ])("refuses a cursor with %s", async (_name, token, init) => {
    expect(await listRefusal({ ...init, perPage: 1, cursor: token() })).toEqual(refused);
  });

  it("binds the normalised filters: a cursor issued for the alias follows with the canonical name", async () => {
    const first = await h.list({
      ...base,
      ...window,
      perPage: 1,
      notEventType: ["action.queue.checks_not_started", "action.merge"],
    });
    const next = linkCursor(first.link, "next")!;
    const second = await h.list({
      ...base,
      ...window,
      perPage: 1,
      notEventType: ["action.merge", "action.queue.checks_postponed"],
      cursor: next,
    });
    expect(second.response.events.map((e) => e.type)).toEqual(["action.label"]);
  });

  it("refuses a cursor presented with another window", async () => {
    expect(await listRefusal({ ...base, perPage: 1, cursor, receivedTo: timestampFromMs(T + 5000) })).toEqual([
      { field: "cursor", description: "belongs to a listing with another received_from / received_to window" },
    ]);
  });

  it("refuses a cursor issued by a service with another secret", async () => {
    const other = createActivityLogService({
      db: h.db.pool,
      eventsWritten: () => {},
      clickhouse: h.clickhouse,
      cursorSecret: "another secret, also 32 bytes long",
    });
    const err = await Promise.resolve()
      .then(() =>
        other.listLogs(create(ListLogsRequestSchema, { ...base, perPage: 1, cursor }), {
          responseHeader: new Headers(),
        } as never),
      )
      .then(() => "accepted", violationsOf);
    expect(err).toEqual(refused);
  });
});
