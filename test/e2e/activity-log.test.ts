/**
 * The activity log end to end (issue "Activity log", Done when): the real server process, events
 * from the pause slice and from `yardmaster events import`, read back over REST and gRPC with
 * filters, pages followed through the `Link` header, aggregates, the int64 pull request number
 * 9223372036854775807 kept exactly from AppendEvents to `/logs`, refusals as 422 naming the
 * parameter, and repository isolation for a token of one repository (by path, filter and cursor).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ActivityLogService } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { Outcome } from "../../gen/yardmaster/v1/events_pb.js";
import { eventLine, METADATA_BUILDERS } from "../activity-log/event-samples.js";
import { runCli } from "../support/cli.js";
import { eventually } from "../support/eventually.js";
import { grpcClient, grpcUnary, type GrpcClient } from "../support/grpc-client.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";
import { createLocalRepository } from "../support/rest-client.js";

const MAX = "9223372036854775807";
let server: ServerProcess;
let log: GrpcClient;
let tokenA: string;
let dir: string;
const now = Date.now();
const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();

async function rest(urlPath: string, token = server.adminKey) {
  const res = await fetch(server.url + urlPath, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  return { status: res.status, link: res.headers.get("link"), text, json: text ? JSON.parse(text) : undefined };
}

/** The import file: 7 events of acme/alpha (one with the largest pull request number), 2 of acme/beta. */
function importLines(): string {
  const alpha = (
    type: string,
    minutesAgo: number,
    over: Record<string, unknown> = {},
    metadata: Record<string, unknown> = {},
  ) => JSON.stringify(eventLine(type, { repository: "acme/alpha", received_at: at(minutesAgo), ...over }, metadata));
  const lines = [
    alpha("action.queue.enter", 50, { pull_request: 7 }),
    alpha("action.queue.checks_start", 45, { pull_request: 7, trigger: "merge queue internal" }),
    alpha("action.queue.checks_end", 40, { pull_request: 7, trigger: "merge queue internal" }),
    alpha("action.queue.leave", 35, { pull_request: 7, trigger: "merge queue internal" }),
    alpha("action.label", 30, { pull_request: 8, base_ref: "release/1.x" }),
    alpha("action.queue.checks_postponed", 25, { pull_request: 8, trigger: "merge queue internal" }),
    "",
    // The pull request number is written as a JSON number with all its digits.
    alpha("action.comment", 20, { trigger: "@ada" }).replace('"pull_request":42', `"pull_request":${MAX}`),
    JSON.stringify(eventLine("action.label", { repository: "acme/beta", pull_request: 7, received_at: at(15) })),
    JSON.stringify(eventLine("action.merge", { repository: "acme/beta", pull_request: 9, received_at: at(10) })),
  ];
  return `${lines.join("\n")}\n`;
}

beforeAll(async () => {
  server = await startServerProcess();
  await createLocalRepository(server, "acme/alpha");
  log = grpcClient(ActivityLogService, `127.0.0.1:${server.port}`);
  dir = await mkdtemp(path.join(os.tmpdir(), "ym-e2e-log-"));
  const token = await runCli(["token", "create", "--repo", "acme/alpha"], server.cliEnv);
  expect(token.code, token.stderr).toBe(0);
  tokenA = token.stdout.trim();
});
afterAll(async () => {
  log?.close();
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("events in", () => {
  it("imports an NDJSON file, and importing it again writes nothing twice", async () => {
    const file = path.join(dir, "events.ndjson");
    await writeFile(file, importLines());
    const first = await runCli(["events", "import", file], server.cliEnv);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe(`imported 9 events from ${file}: 9 written, 0 already imported before\n`);
    const again = await runCli(["events", "import", file], server.cliEnv);
    expect(again.stdout).toBe(`imported 9 events from ${file}: 0 written, 9 already imported before\n`);
  });

  it("refuses a file with bad lines, naming each line and field, and imports none of it", async () => {
    const file = path.join(dir, "bad.ndjson");
    const good = JSON.stringify(eventLine("action.label", { repository: "acme/gamma", received_at: at(5) }));
    const bad = JSON.stringify(
      eventLine("action.queue.enter", { repository: "acme/gamma", received_at: "2026-11-22 10:00" }, { branch: null }),
    );
    await writeFile(file, [good, "{not json", bad, good].join("\n"));
    const res = await runCli(["events", "import", file], server.cliEnv);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`${file}: line 2: line: is not valid JSON`);
    expect(res.stderr).toContain(
      `${file}: line 3: received_at: must be an RFC 3339 date-time with a UTC offset, e.g. 2026-11-22T10:00:00Z\n`,
    );
    expect(res.stderr).toContain(`yardmaster: 2 problem(s) in ${file}; nothing was imported\n`);
    expect((await rest("/v1/repos/acme/gamma/logs")).json.size).toBe(0);
  });

  it("logs pausing and unpausing the queue", async () => {
    const put = await fetch(`${server.url}/v1/repos/acme/alpha/merge-queue/pause`, {
      method: "PUT",
      headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/json" },
      body: JSON.stringify({ reason: "release" }),
    });
    expect(put.status).toBe(200);
    const del = await fetch(`${server.url}/v1/repos/acme/alpha/merge-queue/pause`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${server.adminKey}` },
    });
    expect(del.status).toBe(204);
    const events = await eventually(async () => {
      const res = await rest("/v1/repos/acme/alpha/logs?event_type=queue.pause.create&event_type=queue.pause.delete");
      expect(res.json.size).toBe(2);
      return res.json.events;
    });
    expect(events.map((e: { type: string; metadata: { reason?: string } }) => [e.type, e.metadata.reason])).toEqual([
      ["queue.pause.delete", undefined],
      ["queue.pause.create", "release"],
    ]);
    expect(events[1]).toMatchObject({
      repository: "acme/alpha",
      pull_request: null,
      base_ref: null,
      outcome: "neutral",
    });
  });
});

describe("reading the log over REST", () => {
  it("lists newest first, and follows the Link header across pages", async () => {
    const seen: string[] = [];
    let next: string | undefined =
      "/v1/repos/acme/alpha/logs?per_page=3&not_event_type=queue.pause.create&not_event_type=queue.pause.delete";
    let pages = 0;
    while (next) {
      const res = await rest(next);
      expect(res.status).toBe(200);
      expect(res.json.per_page).toBe(3);
      seen.push(...res.json.events.map((e: { type: string }) => e.type));
      pages++;
      // Link targets are absolute URLs (docs/mergify-cli.md "Pagination"); `rest` takes the path.
      const target = /<([^>]+)>; rel="next"/.exec(res.link ?? "")?.[1];
      next = target === undefined ? undefined : new URL(target).pathname + new URL(target).search;
      if (pages > 1) expect(res.link).toMatch(/rel="prev"/);
      expect(res.link).toMatch(/rel="first"$/);
    }
    expect(pages).toBe(3);
    expect(seen).toEqual([
      "action.comment",
      "action.queue.checks_postponed",
      "action.label",
      "action.queue.leave",
      "action.queue.checks_end",
      "action.queue.checks_start",
      "action.queue.enter",
    ]);
  });

  it("keeps the pull request number 9223372036854775807 exact", async () => {
    const res = await rest(`/v1/repos/acme/alpha/logs?pull_request=${MAX}`);
    expect(res.json.size).toBe(1);
    expect(res.text).toContain(`"pull_request":${MAX},`);
  });

  it.each([
    [
      "pull_request=7",
      ["action.queue.leave", "action.queue.checks_end", "action.queue.checks_start", "action.queue.enter"],
    ],
    [
      "not_pull_request=7&not_event_type=queue.pause.create&not_event_type=queue.pause.delete",
      ["action.comment", "action.queue.checks_postponed", "action.label"],
    ],
    ["base_ref=release/1.x", ["action.label"]],
    ["batch_pull=1001", ["action.queue.checks_end", "action.queue.checks_start"]],
    ["event_type=action.queue.checks_not_started", ["action.queue.checks_postponed"]],
    ["outcome=pending", ["action.queue.checks_start", "action.queue.enter"]],
    // An action's event is a success unless it carries the forge's refusal (docs/activity-log.md).
    [
      "outcome=success&not_trigger=Rule%3A%20automatic%20merge",
      ["action.comment", "action.queue.leave", "action.queue.checks_end"],
    ],
    ["trigger=%40ada", ["action.comment"]],
  ])("filters with %s", async (query, types) => {
    const res = await rest(`/v1/repos/acme/alpha/logs?${query}`);
    expect(res.status).toBe(200);
    expect(res.json.events.map((e: { type: string }) => e.type)).toEqual(types);
  });

  it("aggregates the same rows /logs lists", async () => {
    const q = "not_event_type=queue.pause.create&not_event_type=queue.pause.delete&trigger=merge%20queue%20internal";
    const agg = await rest(`/v1/repos/acme/alpha/logs/aggregate?${q}`);
    const list = await rest(`/v1/repos/acme/alpha/logs?${q}&per_page=100`);
    expect(agg.status).toBe(200);
    expect(agg.json.total).toBe(list.json.size);
    expect(agg.json).toMatchObject({
      total: 4,
      interval_size_seconds: 900,
      by_outcome: [
        { value: "success", count: 2 },
        { value: "failure", count: 1 },
        { value: "pending", count: 1 },
      ],
      by_trigger: [
        { value: "merge queue internal", count: 4 },
        { value: "Rule: automatic merge", count: 2 },
        { value: "@ada", count: 1 },
      ],
      by_pull_request: [
        { value: "7", count: 3 },
        { value: "8", count: 1 },
      ],
      by_batch_pull_request: [{ value: "1001", count: 2 }],
    });
    expect(agg.json.histogram.reduce((n: number, b: { count: number }) => n + b.count, 0)).toBe(4);
  });

  it.each([
    [
      "received_from=1700000000",
      "received_from",
      "must be an ISO 8601 date-time with a UTC offset, e.g. 2026-11-22T10:00:00Z (a Unix timestamp or a date-time without offset is refused)",
    ],
    [
      "received_to=2026-11-22T10:00:00",
      "received_to",
      "must be an ISO 8601 date-time with a UTC offset, e.g. 2026-11-22T10:00:00Z (a Unix timestamp or a date-time without offset is refused)",
    ],
    [
      "received_from=2026-11-22T10:00:00Z&received_to=2026-11-21T10:00:00Z",
      "received_from",
      "must not be after received_to",
    ],
    [
      "pull_request=1&not_pull_request=2",
      "not_pull_request",
      "cannot be combined with pull_request (the two are mutually exclusive)",
    ],
    ["trigger=API&not_trigger=API", "not_trigger", "cannot be combined with trigger (the two are mutually exclusive)"],
    ["event_type=action.teleport", "event_type", 'unknown event type "action.teleport"'],
    ["outcome=great", "outcome", "must be one of success, failure, pending, neutral"],
    ["per_page=0", "per_page", "must be an integer between 1 and 100"],
    ["per_page=101", "per_page", "must be an integer between 1 and 100"],
    ["base_ref=", "base_ref", "must be at least 1 character long"],
    [
      "cursor=MS5vLjE.AAAAAAAAAAAAAAAAAAAAAAAA",
      "cursor",
      "is not a cursor issued for this repository and these filters (it was altered, or comes from another listing)",
    ],
  ])("refuses %s with 422 naming the parameter", async (query, field, description) => {
    const res = await rest(`/v1/repos/acme/alpha/logs?${query}`);
    expect(res.status).toBe(422);
    expect(res.json.code).toBe("invalid_argument");
    expect(res.json.details).toContainEqual({ type: "field_violation", field, description });
    if (!query.startsWith("cursor") && !query.startsWith("per_page"))
      expect((await rest(`/v1/repos/acme/alpha/logs/aggregate?${query}`)).status).toBe(422);
  });
});

describe("reading the log over gRPC", () => {
  it("lists and aggregates with the same filters as REST", async () => {
    const req = { owner: "acme", repository: "alpha", pullRequest: [7n, BigInt(MAX)], perPage: 100 };
    const list = await grpcUnary(log, "listLogs", req, server.adminKey);
    const rest_ = await rest(`/v1/repos/acme/alpha/logs?pull_request=7&pull_request=${MAX}&per_page=100`);
    expect(list.events.map((e: { id: bigint }) => String(e.id))).toEqual(
      rest_.json.events.map((e: { id: number }) => String(e.id)),
    );
    expect(list.events[0]).toMatchObject({
      pullRequest: BigInt(MAX),
      type: "action.comment",
      outcome: Outcome.success,
    });
    const agg = await grpcUnary(
      log,
      "aggregateLogs",
      { owner: "acme", repository: "alpha", pullRequest: [7n, BigInt(MAX)] },
      server.adminKey,
    );
    expect(agg.total).toBe(5n);
  });

  it("records with AppendEvents (admin key) and reads the int64 pull request back exactly", async () => {
    const res = await grpcUnary(
      log,
      "appendEvents",
      {
        idempotencyKey: "e2e-append-1",
        events: [
          {
            type: "action.merge",
            repository: "acme/delta",
            pullRequest: BigInt(MAX),
            trigger: "API",
            receivedAt: timestampFromMs(now - 60_000),
            metadata: METADATA_BUILDERS["action.merge"](),
          },
        ],
      },
      server.adminKey,
    );
    expect(res.ids).toHaveLength(1);
    const listed = await eventually(async () => {
      const l = await grpcUnary(log, "listLogs", { owner: "acme", repository: "delta" }, server.adminKey);
      expect(l.events).toHaveLength(1);
      return l.events[0];
    });
    expect({ id: listed.id, pullRequest: listed.pullRequest, outcome: listed.outcome }).toEqual({
      id: res.ids[0],
      pullRequest: BigInt(MAX),
      outcome: Outcome.success,
    });
    expect((await rest("/v1/repos/acme/delta/logs")).text).toContain(`"pull_request":${MAX},`);
  });

  it("refuses AppendEvents to a repository token", async () => {
    const err = await grpcUnary(log, "appendEvents", { idempotencyKey: "e2e-append-2", events: [] }, tokenA).catch(
      (e: grpc.ServiceError) => e,
    );
    expect(err.code).toBe(grpc.status.PERMISSION_DENIED);
  });
});

describe("repository isolation", () => {
  it("gives a token of acme/alpha its own log, and nothing of acme/beta by path", async () => {
    expect(
      (await rest("/v1/repos/acme/alpha/logs?pull_request=7", tokenA)).json.events.every(
        (e: { repository: string }) => e.repository === "acme/alpha",
      ),
    ).toBe(true);
    expect((await rest("/v1/repos/acme/beta/logs", tokenA)).status).toBe(403);
    expect((await rest("/v1/repos/acme/beta/logs/aggregate", tokenA)).status).toBe(403);
    const err = await grpcUnary(log, "listLogs", { owner: "acme", repository: "beta" }, tokenA).catch(
      (e: grpc.ServiceError) => e,
    );
    expect(err.code).toBe(grpc.status.PERMISSION_DENIED);
  });

  it("finds no acme/beta event through filters on acme/alpha", async () => {
    // Pull request 9 exists only in acme/beta; action.merge only there too.
    expect((await rest("/v1/repos/acme/alpha/logs?pull_request=9", tokenA)).json.size).toBe(0);
    const agg = await rest("/v1/repos/acme/alpha/logs/aggregate?event_type=action.merge", tokenA);
    expect(agg.json.total).toBe(0);
  });

  it("refuses a cursor of acme/beta presented on acme/alpha", async () => {
    const beta = await rest("/v1/repos/acme/beta/logs?per_page=1");
    const cursor = new URL(/<([^>]+)>; rel="next"/.exec(beta.link!)![1], server.url).searchParams.get("cursor")!;
    const res = await rest(`/v1/repos/acme/alpha/logs?per_page=1&cursor=${encodeURIComponent(cursor)}`, tokenA);
    expect(res.status).toBe(422);
    expect(res.json.details).toContainEqual(expect.objectContaining({ field: "cursor" }));
    const err = await grpcUnary(
      log,
      "listLogs",
      { owner: "acme", repository: "alpha", perPage: 1, cursor },
      tokenA,
    ).catch((e: grpc.ServiceError) => e);
    expect(err.code).toBe(grpc.status.INVALID_ARGUMENT);
  });
});
