/**
 * The REST surface of docs/api.md against the real server process, for a repository with no queue:
 * every unary route answers its status and body shape; bad input is refused with 422
 * naming the parameter; unknown paths 404; wrong methods 405 with Allow. Every answer read here
 * is also checked against the OpenAPI document the server publishes (its status declared, its
 * body valid against the schema given for it: test/support/openapi-check.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiProblems } from "../support/openapi-check.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";
import { createLocalRepository } from "../support/rest-client.js";

let server: ServerProcess;
let auth: Record<string, string>;
const repo = "/v1/repos/acme/widgets";

beforeAll(async () => {
  server = await startServerProcess();
  await createLocalRepository(server, "acme/widgets");
  await createLocalRepository(server, "acme/identity");
  auth = { authorization: `Bearer ${server.adminKey}` };
});
afterAll(() => server?.stop());

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(server.url + path, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  const json = text ? JSON.parse(text) : undefined;
  expect(openApiProblems(method, path, res.status, json)).toEqual([]);
  checked.add(`${method} ${res.status}`);
  return { status: res.status, headers: res.headers, text, json };
}

/** Method and status of every answer checked against the OpenAPI document. */
const checked = new Set<string>();

describe("the unary REST routes, for a repository with no queue", () => {
  it.each([
    ["GET", "/merge-queue/branches", undefined, 200, { branches: [] }],
    [
      "GET",
      "/merge-queue/status",
      undefined,
      200,
      {
        scope_queues: { __default__: [] },
        batches: [],
        waiting_pull_requests: [],
        automatic_conflict_resolution_unsupported: true,
        mode: "serial",
      },
    ],
    [
      "GET",
      "/merge-queue/status?branch=main",
      undefined,
      200,
      {
        scope_queues: { __default__: [] },
        batches: [],
        waiting_pull_requests: [],
        automatic_conflict_resolution_unsupported: true,
        mode: "serial",
      },
    ],
    [
      "GET",
      "/merge-queue/pull/1",
      undefined,
      404,
      { code: "not_found", message: "pull request 1 is not in any merge queue" },
    ],
    [
      "GET",
      "/merge-queue/pull/1/dequeue-impact",
      undefined,
      404,
      { code: "not_found", message: "pull request 1 is not in any merge queue" },
    ],
    [
      "POST",
      "/merge-queue/pull/1/dequeue",
      undefined,
      404,
      { code: "not_found", message: "pull request 1 is not in any merge queue" },
    ],
    ["GET", "/merge-queue/pause", undefined, 200, { paused: false, reason: null, paused_at: null }],
    [
      "DELETE",
      "/merge-queue/pause",
      undefined,
      404,
      { code: "not_found", message: "the merge queue of acme/widgets is not paused" },
    ],
    ["GET", "/queue/pause", undefined, 200, { queue_pause: [] }],
    [
      "DELETE",
      "/queue/pause",
      undefined,
      404,
      { code: "not_found", message: "the merge queue of acme/widgets is not paused" },
    ],
    [
      "POST",
      "/queue/pause/delete",
      undefined,
      404,
      { code: "not_found", message: "the merge queue of acme/widgets is not paused" },
    ],
    // No configuration file: the default configuration the queue runs with (docs/merge-queue.md).
    [
      "GET",
      "/queues/configuration",
      undefined,
      200,
      {
        configuration: [
          { name: "default", config: { batch_size: 1, batch_max_wait_time: 30, allow_inplace_checks: true } },
        ],
      },
    ],
    ["GET", "/queues", undefined, 200, { queues: [] }],
    ["GET", "/queues/branches", undefined, 200, { base_refs: [] }],
    [
      "GET",
      "/queues/branches?start_at=2026-01-01T00:00:00Z&end_at=2026-01-02T00:00:00%2B02:00",
      undefined,
      200,
      { base_refs: [] },
    ],
  ])("%s %s answers %s", async (method, path, body, status, expected) => {
    const res = await call(method, repo + path, body);
    expect(res.status).toBe(status);
    expect(res.json).toMatchObject(expected as object);
    if (status >= 400)
      expect(res.json.details).toContainEqual({ type: "request_info", request_id: res.headers.get("x-request-id") });
  });

  it("GET /queues/configuration without a configuration file shows every key of the default queue rule", async () => {
    const res = await call("GET", `${repo}/queues/configuration`);
    expect(Object.keys(res.json.configuration[0].config).sort()).toEqual([
      "allow_inplace_checks",
      "allow_queue_branch_edit",
      "batch_max_failure_resolution_attempts",
      "batch_max_wait_time",
      "batch_size",
      "batch_size_max",
      "batch_size_min",
      "checks_timeout",
      "commit_message_template",
      "draft_bot_account",
      "max_parallel_checks",
      "merge_bot_account",
      "merge_method",
      "priority",
      "queue_branch_merge_method",
      "queue_branch_prefix",
      "self_tuning",
      "update_bot_account",
      "update_method",
    ]);
    // docs/self-tuning.md: the default rule is self-tuned; with no traffic yet, the static defaults.
    const statics = { batch_size: { min: 1, max: 1 }, batch_max_wait_time: 30, max_parallel_checks: 5 };
    expect(res.json.configuration[0].config.self_tuning).toEqual({ ...statics, configured: statics, observed: null });
  });

  it("PUT /merge-queue/pause and PUT /queue/pause answer the pause, DELETE answers 204 with an empty body", async () => {
    const put = await call("PUT", `${repo}/merge-queue/pause`, { reason: "release freeze" });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({
      paused: true,
      reason: "release freeze",
      paused_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
    });
    const legacy = await call("PUT", `${repo}/queue/pause`, { reason: "still frozen" });
    expect(legacy.status).toBe(200);
    expect(legacy.json).toEqual({ queue_pause: [{ reason: "still frozen", pause_date: put.json.paused_at }] });
    const del = await call("DELETE", `${repo}/merge-queue/pause`);
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
  });

  it.each([
    ["POST", "/pulls/1/simulator", 404, { code: "not_found", message: "pull request 1 was not found in acme/widgets" }],
    ["POST", "/simulator", 200, { title: "The configuration is valid", summary: "", deprecations: [] }],
    [
      "POST",
      "/configuration-simulator",
      200,
      { message: "The configuration is valid", deprecations: [], unused_sections: [] },
    ],
  ])("%s %s answers %s for a valid configuration", async (method, path, status, expected) => {
    const res = await call(method, repo + path, { service_yml: "queue_rules:\n  - name: default\n" });
    expect(res.status).toBe(status);
    expect(res.json).toMatchObject(expected as object);
  });

  it("POST /traffic-simulator refuses a window without traffic, naming the figure", async () => {
    const res = await call("POST", `${repo}/traffic-simulator`, {
      since: new Date(Date.now() - 86_400_000).toISOString(),
      service_yml: "queue_rules:\n  - name: default\n",
    });
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ code: "failed_precondition" });
    expect(res.json.message).toMatch(/0 pull requests entered the queue .*at least 10/);
  });

  it.each([["/pulls/1/simulator"], ["/simulator"], ["/configuration-simulator"]])(
    "POST %s refuses an invalid configuration with every error",
    async (path) => {
      const res = await call("POST", repo + path, {
        service_yml: "queue_rules:\n  - name: default\n    batch_size: 0\n    colour: red\n",
      });
      expect(res.status).toBe(422);
      expect(
        res.json.details
          .filter((d: { type: string }) => d.type === "field_violation")
          .map((d: { field: string }) => d.field),
      ).toEqual(["service_yml", "service_yml"]);
      expect(res.json.message).toMatch(
        /^service_yml: .*queue_rules → item 0 → batch_size \(line 3, column 17\) \(and 1 more\)$/,
      );
    },
  );

  // A repository of its own: the pause routes above log events for acme/widgets.
  it("GET /logs answers an empty page with its Link, its target absolute (docs/mergify-cli.md)", async () => {
    const res = await call("GET", "/v1/repos/acme/quiet/logs");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ size: 0, per_page: 10, events: [] });
    expect(res.headers.get("link")!.startsWith(`<${server.url}/v1/repos/acme/quiet/logs?received_from=`)).toBe(true);
    expect(res.headers.get("link")).toMatch(/&per_page=10>; rel="first"$/);
  });

  it("GET /logs/aggregate answers zero counts over a zero-filled day", async () => {
    const res = await call("GET", "/v1/repos/acme/quiet/logs/aggregate");
    expect(res.status).toBe(200);
    const { histogram, ...rest } = res.json;
    expect(rest).toEqual({
      total: 0,
      interval_size_seconds: 900,
      by_event_type: [],
      by_outcome: [],
      by_trigger: [],
      by_pull_request: [],
      by_batch_pull_request: [],
    });
    expect(histogram.length).toBeGreaterThanOrEqual(96);
    expect(histogram.every((b: { count: number }) => b.count === 0)).toBe(true);
    expect(Object.keys(histogram[0])).toEqual(["start", "end", "count"]);
  });
});

describe("bad input", () => {
  const long = (n: number) => "a".repeat(n);
  it.each([
    [`/v1/repos/${long(41)}/widgets/merge-queue/branches`, "owner", "must be at most 40 characters long"],
    ["/v1/repos/ac_me/widgets/merge-queue/branches", "owner", "must match the pattern ^[a-zA-Z0-9\\-]+$"],
    [`/v1/repos/acme/${long(101)}/merge-queue/branches`, "repository", "must be at most 100 characters long"],
    ["/v1/repos/acme/wid$gets/merge-queue/branches", "repository", "must match the pattern ^[\\w\\-\\.]+$"],
    [`${repo}/merge-queue/pull/abc`, "pr_number", "must be an integer between 0 and 9223372036854775807"],
    [`${repo}/merge-queue/pull/-1`, "pr_number", "must be an integer between 0 and 9223372036854775807"],
    [
      `${repo}/merge-queue/pull/9223372036854775808`,
      "pr_number",
      "must be an integer between 0 and 9223372036854775807",
    ],
    [`${repo}/queues/branches?start_at=1700000000`, "start_at", expect.stringContaining("UTC offset")],
    [`${repo}/queues/branches?end_at=2026-01-01T00:00:00`, "end_at", expect.stringContaining("UTC offset")],
    [
      `${repo}/queues/branches?start_at=2026-01-02T00:00:00Z&end_at=2026-01-01T00:00:00Z`,
      "start_at",
      "must not be after end_at",
    ],
    [`${repo}/queues/branches?colour=red`, "colour", "unknown query parameter"],
    [`${repo}/merge-queue/status?branch=a&branch=b`, "branch", "must be given at most once"],
    [`${repo}/queues/branches?start_at=2026-02-30T00:00:00Z`, "start_at", expect.stringContaining("UTC offset")],
    [`${repo}/logs?received_from=2026-04-31T00:00:00Z`, "received_from", expect.stringContaining("UTC offset")],
    [`${repo}/logs?received_from=0000-01-01T00:00:00Z`, "received_from", expect.stringContaining("UTC offset")],
    [`${repo}/logs?received_to=0001-01-01T00:00:00%2B01:00`, "received_to", expect.stringContaining("UTC offset")],
    [`${repo}/logs?per_page=abc`, "per_page", "must be an integer between 1 and 100"],
    [`${repo}/logs?per_page=101`, "per_page", "must be an integer between 1 and 100"],
    [`${repo}/logs?pull_request=-3`, "pull_request", "must be an integer between 0 and 9223372036854775807"],
    [
      `${repo}/logs?${Array.from({ length: 101 }, (_, i) => `pull_request=${i}`).join("&")}`,
      "pull_request",
      "must hold at most 100 values, not 101",
    ],
    [`${repo}/logs?trigger=${long(256)}`, "trigger[0]", "must be at most 255 characters long"],
    [`${repo}/logs?trigger=a%00b`, "trigger[0]", "must not contain the NUL character (U+0000)"],
  ])("GET %s is 422 naming %s", async (path, field, description) => {
    const res = await call("GET", path);
    expect(res.status).toBe(422);
    expect(res.json.code).toBe("invalid_argument");
    expect(res.json.details).toContainEqual({ type: "field_violation", field, description });
    expect(res.json.message.startsWith(`${field}: `)).toBe(true);
  });

  it("lists every violation of a request, whatever the kind", async () => {
    const logs = await call("GET", `${repo}/logs?per_page=0&outcome=bad&event_type=${"x".repeat(3)}&pull_request=a`);
    expect(logs.status).toBe(422);
    expect(
      logs.json.details
        .filter((d: { type: string }) => d.type === "field_violation")
        .map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(["outcome", "per_page", "pull_request"]);
    const pull = await call("GET", "/v1/repos/ac_me/widgets/merge-queue/pull/-1");
    expect(
      pull.json.details
        .filter((d: { type: string }) => d.type === "field_violation")
        .map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(["owner", "pr_number"]);
    expect(pull.json.message).toMatch(/\(and 1 more\)$/);
  });

  it("answers the whole range of dates a timestamp holds, buckets clamped to it", async () => {
    const last = await call("GET", `${repo}/logs/aggregate?received_to=9999-12-31T23:59:59Z`);
    expect(last.status).toBe(200);
    expect(last.json.histogram.at(-1).end).toBe("9999-12-31T23:59:59.999Z");
    const first = await call("GET", `${repo}/logs/aggregate?received_to=0001-01-01T00:00:00Z`);
    expect(first.status).toBe(200);
    expect(first.json.histogram).toEqual([]);
    const early = await call("GET", `${repo}/logs?received_to=0001-01-01T06:00:00Z&per_page=1`);
    expect(early.status).toBe(200);
    const firstLink = new URL(/<([^>]+)>; rel="first"/.exec(early.headers.get("link")!)![1], server.url);
    expect(firstLink.searchParams.get("received_from")).toBe("0001-01-01T00:00:00.000Z");
    expect((await call("GET", firstLink.pathname + firstLink.search)).status).toBe(200);
  });

  it("keeps the largest pull request number exact", async () => {
    const res = await call("GET", `${repo}/merge-queue/pull/9223372036854775807`);
    expect(res.status).toBe(404);
    expect(res.json.message).toBe("pull request 9223372036854775807 is not in any merge queue");
  });

  it.each([
    ['{"reason":', "body", expect.stringContaining("is not valid JSON")],
    ['{"reason":"x","colour":"red"}', "colour", "unknown field (not in yardmaster.v1.PauseMergeQueueRequest)"],
    ['{"reason":42}', "reason", "must be a string, not number"],
    ["{}", "reason", "is required"],
    [`{"reason":"${long(256)}"}`, "reason", "must be at most 255 characters long"],
    ["[1]", "body", "must be an object, not an array"],
    ['{"reason":"a\\u0000b"}', "reason", "must not contain the NUL character (U+0000)"],
  ])("PUT /merge-queue/pause with %s is 422 naming %s", async (body, field, description) => {
    const res = await call("PUT", `${repo}/merge-queue/pause`, body);
    expect(res.status).toBe(422);
    expect(res.json.details).toContainEqual({ type: "field_violation", field, description });
  });

  it("refuses a compressed body with 415 naming content-encoding, and takes an identity one", async () => {
    const gzipped = await call("PUT", `${repo}/merge-queue/pause`, '{"reason":"x"}', { "content-encoding": "gzip" });
    expect(gzipped.status).toBe(415);
    expect(gzipped.json.code).toBe("invalid_argument");
    expect(gzipped.json.details).toContainEqual({
      type: "field_violation",
      field: "content-encoding",
      description: '"gzip" is not supported: send the request body uncompressed',
    });
    const identity = await call("PUT", "/v1/repos/acme/identity/merge-queue/pause", '{"reason":"x"}', {
      "content-encoding": "identity",
    });
    expect(identity.status).toBe(200);
  });

  it("refuses a body sent as text/plain with 415 naming content-type", async () => {
    const res = await call("PUT", `${repo}/merge-queue/pause`, '{"reason":"x"}', { "content-type": "text/plain" });
    expect(res.status).toBe(415);
    expect(res.json.details).toContainEqual({
      type: "field_violation",
      field: "content-type",
      description: '"text/plain" is not supported: send the body as application/json',
    });
  });

  it("answers a request whose headers exceed 16 KiB with 431 and the error body", async () => {
    const res = await call("GET", `${repo}/logs?trigger=${"t".repeat(20_000)}`);
    expect(res.status).toBe(431);
    expect(res.json).toMatchObject({ code: "resource_exhausted", message: expect.stringContaining("16 KiB") });
    expect(res.json.details).toContainEqual({ type: "request_info", request_id: res.headers.get("x-request-id") });
  });

  it("answers 404 for an unknown path and 405 with Allow for a wrong method", async () => {
    expect((await call("GET", `${repo}/nothing-here`)).status).toBe(404);
    expect((await call("GET", "/elsewhere")).json.code).toBe("not_found");
    const res = await call("PATCH", `${repo}/merge-queue/pause`);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("DELETE, GET, PUT");
  });

  it("publishes the document its answers were checked against, and the API reference", async () => {
    const served = await call("GET", "/openapi.json");
    expect(served.json.openapi).toBe("3.1.0");
    const operations = Object.values(served.json.paths).flatMap((item) => Object.keys(item as object));
    expect(operations.length).toBeGreaterThanOrEqual(20);
    expect(checked.size).toBeGreaterThanOrEqual(5);
    const page = await fetch(`${server.url}/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("/docs/redoc.standalone.js");
    const bundle = await fetch(`${server.url}/docs/redoc.standalone.js`);
    expect(bundle.headers.get("content-type")).toContain("javascript");
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });

  it("answers health and readiness", async () => {
    expect((await call("GET", "/healthz")).json).toEqual({ status: "ok" });
    expect((await call("GET", "/readyz")).json).toEqual({
      status: "ready",
      checks: { postgresql: "ok", clickhouse: "ok" },
      outbox: { events_waiting: expect.any(Number), oldest_age_seconds: expect.any(Number) },
      streams: { watchers: 0, buffered_messages: 0, buffered_bytes: 0 },
    });
  });
});
