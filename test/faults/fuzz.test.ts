/**
 * The fault fuzzer (docs/reliability.md "Hostile input"): bad input never crashes, never answers a
 * server error, never holds the server. Fixed seeds; against the real server process, which holds
 * a local forge repository acme/widgets with a queue configuration and an open pull request, so
 * that random requests reach the handlers' own work.
 * - REST: the 20 routes of docs/api.md, with random path parameters, queries, bodies and content
 *   types: every answer below 500, every error the JSON error body naming its field.
 * - Connect: every RPC of every service, JSON bodies built from the method's own fields, and
 *   random bytes as application/proto: a success or a Connect error other than internal/unknown.
 * - gRPC (HTTP/2, @grpc/grpc-js): every RPC of every service, reflection's streams included,
 *   with valid, corrupt and random messages: no status that blames the server.
 * - Hostile configuration texts (bench/config/hostile-texts.ts: duplicate keys, alias bombs, deep
 *   nesting, huge lists, a text just over the size limit) by REST, Connect and gRPC, and hostile
 *   bodies (deep JSON, 4 MiB of small values, a gzip bomb, duplicate keys): a 4xx, in bounded time.
 * Afterwards the process is up and ready. Moved from test/e2e/input-fuzz.test.ts and extended.
 */
import { create, toBinary, fromJson, type DescMethod } from "@bufbuild/protobuf";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServerReflection } from "../../gen/grpc/reflection/v1/reflection_pb.js";
import { SimulatorService } from "../../gen/yardmaster/v1/simulator_pb.js";
import { hostileConfigurations } from "../../bench/config/hostile-texts.js";
import { gitWorkdir } from "../support/git-workdir.js";
import { restCall } from "../support/rest-client.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";
import { connectRequest, METHODS, messageValue, SERVICES, useFuzzPaths } from "./fuzz-connect-requests.js";
import { CONNECT_CODES, errorBodyProblem } from "./fuzz-error-body.js";
import { rawGrpcClient, SERVER_FAILURES } from "./fuzz-grpc.js";
import { restRequest } from "./fuzz-rest-requests.js";

/** The longest any one answer may take, milliseconds: generous for a loaded CI machine, short of a hang. */
const ANSWER_BOUND_MS = 30_000;

let server: ServerProcess;
let work: string;

// A repository of the local forge with a queue configuration and an open pull request, so that
// random requests naming acme/widgets reach the handlers' own work, not only "not found".
beforeAll(async () => {
  server = await startServerProcess();
  work = await mkdtemp(path.join(os.tmpdir(), "ym-fuzz-"));
  const source = await gitWorkdir(path.join(work, "source"));
  useFuzzPaths(source.path, work);
  await source.commit("Initial commit", { ".yardmaster.yml": "queue_rules:\n  - name: default\n    batch_size: 2\n" });
  source.git("switch", "--quiet", "-c", "feature");
  await source.commit("A change", { "a.txt": "a\n" });
  for (const [rpc, body] of [
    ["CreateRepository", { owner: "acme", repository: "widgets", fromPath: source.path, atRef: "main" }],
    [
      "PushBranch",
      { owner: "acme", repository: "widgets", fromPath: source.path, sourceRef: "feature", branch: "feature" },
    ],
    ["OpenPullRequest", { owner: "acme", repository: "widgets", head: "feature", base: "main", title: "A change" }],
  ] as const)
    expect((await restCall(server, "POST", `/yardmaster.v1.ForgeService/${rpc}`, body)).status).toBe(200);
});
afterAll(async () => {
  await server?.stop();
  await rm(work, { recursive: true, force: true });
});

describe("random REST requests", () => {
  it("answer below 500, every error in the JSON error body naming its field", async () => {
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(restRequest, async (r) => {
        const url = `${server.url}/v1/repos/${r.owner}/${r.repository}${r.route[1].replace("{n}", r.n)}${r.query ? `?${r.query}` : ""}`;
        const headers: Record<string, string> = { authorization: `Bearer ${server.adminKey}` };
        const body = r.route[0] === "GET" ? undefined : r.body; // fetch sends no body with GET
        if (body !== undefined && r.contentType) headers["content-type"] = r.contentType;
        const res = await fetch(url, { method: r.route[0], headers, body });
        const text = await res.text();
        seen.add(res.status);
        const context = `${r.route[0]} ${url} ${body ?? ""}`;
        expect(res.status, `${context} → ${text.slice(0, 300)}`).toBeLessThan(500);
        if (res.status >= 400) expect(errorBodyProblem(res.status, text), context).toBeNull();
      }),
      { numRuns: 400, seed: 20261124 },
    );
    // The generators reach past validation: successes and refusals both occur.
    expect([...seen].some((s) => s < 300)).toBe(true);
    expect(seen.has(422)).toBe(true);
  });
});

describe("random Connect requests to every RPC", () => {
  it("answer a success or a Connect error other than internal and unknown", async () => {
    const succeeded = new Set<string>();
    await fc.assert(
      fc.asyncProperty(connectRequest, async (r) => {
        const res = await fetch(server.url + r.path, {
          method: "POST",
          headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/json" },
          body: r.body,
        });
        const text = await res.text();
        const context = `${r.path} ${r.body} → ${res.status} ${text.slice(0, 300)}`;
        expect(res.status, context).toBeLessThan(500);
        if (res.status === 200) succeeded.add(r.path);
        else {
          const body = JSON.parse(text);
          expect(CONNECT_CODES, context).toContain(body.code);
          expect(["internal", "unknown"], context).not.toContain(body.code);
        }
      }),
      { numRuns: 600, seed: 20261124 },
    );
    // The bodies reach the handlers' own work: many RPCs succeed at least once (30 of 41 in 4,000 runs).
    expect(succeeded.size).toBeGreaterThanOrEqual(10);
  });
});

describe("random binary bodies to every RPC (Connect with application/proto)", () => {
  it("answer a success or a Connect error other than internal and unknown", async () => {
    let unparsable = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...METHODS), fc.uint8Array({ maxLength: 200 }), async (m, bytes) => {
        const res = await fetch(server.url + m.path, {
          method: "POST",
          headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/proto" },
          body: bytes,
        });
        const text = await res.text();
        const context = `${m.path} ${Buffer.from(bytes).toString("hex")} → ${res.status} ${text.slice(0, 300)}`;
        expect(res.status, context).toBeLessThan(500);
        if (res.status === 200) return;
        const error = JSON.parse(text);
        expect(["internal", "unknown"], context).not.toContain(error.code);
        if (error.code === "invalid_argument" && error.message.startsWith("parse binary: ")) unparsable++;
      }),
      { numRuns: 300, seed: 20261124 },
    );
    // Most random bytes are no message at all: those are the caller's error (docs/errors.md "Unparsable request messages").
    expect(unparsable).toBeGreaterThan(0);
  });
});

// The live streams do not end by themselves: test/e2e/queue-watch.test.ts and log-tail.test.ts cover them.
const GRPC_METHODS: DescMethod[] = [...SERVICES, ServerReflection]
  .flatMap((s) => s.methods)
  .filter((m) => m.methodKind !== "server_streaming");

/** A request message for gRPC: a valid encoding of a random message of the input type, a corrupt one, or random bytes. */
const grpcRequest = fc.constantFrom(...GRPC_METHODS).chain((method) =>
  fc.record({
    method: fc.constant(method),
    bytes: fc.oneof(
      {
        weight: 4,
        arbitrary: messageValue(method.input, 1).map((json) => {
          try {
            return toBinary(method.input, fromJson(method.input, json as never, { ignoreUnknownFields: true }));
          } catch {
            return toBinary(method.input, create(method.input));
          }
        }),
      },
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 120 }) },
    ),
  }),
);

describe("random gRPC calls to every RPC (HTTP/2, @grpc/grpc-js)", () => {
  it("answer no status that blames the server", async () => {
    const client = rawGrpcClient(`127.0.0.1:${server.port}`);
    const answered = new Set<string>();
    try {
      await fc.assert(
        fc.asyncProperty(grpcRequest, async ({ method, bytes }) => {
          const answer = await client.call(method, bytes, server.adminKey);
          const context = `${method.parent.typeName}/${method.name} ${Buffer.from(bytes).toString("hex").slice(0, 200)} → ${answer.code} ${answer.details}`;
          expect(SERVER_FAILURES.has(answer.code), context).toBe(false);
          expect(answer.ms, context).toBeLessThan(ANSWER_BOUND_MS);
          answered.add(method.name);
        }),
        { numRuns: 300, seed: 20261126 },
      );
    } finally {
      client.close();
    }
    expect(answered.size).toBeGreaterThan(GRPC_METHODS.length / 2);
  });
});

describe("hostile configuration texts", () => {
  it("are refused as invalid (422, invalid_argument, gRPC 3) in bounded time on REST, Connect and gRPC", async () => {
    const client = rawGrpcClient(`127.0.0.1:${server.port}`);
    const method = SimulatorService.method.simulateRepository;
    try {
      // Every limit once; the texts of 1 MiB that only repeat one (lists, keys) are left to the benchmark.
      const texts = hostileConfigurations().filter(
        (h) => !h.name.endsWith("(1 MiB)") || h.name.startsWith("duplicate keys"),
      );
      for (const [i, { name, text }] of texts.entries()) {
        const started = performance.now();
        let outcome: string;
        if (i % 3 === 0) {
          const res = await fetch(`${server.url}/v1/repos/acme/widgets/configuration-simulator`, {
            method: "POST",
            headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/json" },
            body: JSON.stringify({ service_yml: text }),
          });
          const body = await res.text();
          outcome = `REST ${res.status} ${body.length} bytes`;
          expect(res.status, `${name}: ${outcome}`).toBe(422);
          expect(body.length, name).toBeLessThan(64 * 1024);
        } else if (i % 3 === 1) {
          const res = await fetch(`${server.url}/${SimulatorService.typeName}/SimulateConfiguration`, {
            method: "POST",
            headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/json" },
            body: JSON.stringify({ owner: "acme", repository: "widgets", service_yml: text }),
          });
          const body = await res.text();
          outcome = `Connect ${res.status} ${body.length} bytes`;
          expect(res.status, `${name}: ${outcome}`).toBe(400);
          expect(JSON.parse(body).code, `${name}: ${outcome}`).toBe("invalid_argument");
        } else {
          const bytes = toBinary(
            method.input,
            create(method.input, { owner: "acme", repository: "widgets", serviceYml: text }),
          );
          const answer = await client.call(method, bytes, server.adminKey);
          outcome = `gRPC ${answer.code} ${answer.details.slice(0, 100)}`;
          expect(answer.code, `${name}: ${outcome}`).toBe(3); // INVALID_ARGUMENT
        }
        expect(performance.now() - started, `${name}: ${outcome}`).toBeLessThan(ANSWER_BOUND_MS);
      }
    } finally {
      client.close();
    }
  });
});

/** Bodies no client should send: each answers a 4xx. */
// biome-ignore format: a table, one row per line
const HOSTILE_BODIES: [string, string, Record<string, string>, () => Uint8Array | string][] = [
  ["REST, JSON nested 100,000 deep", "/v1/repos/acme/widgets/simulator", { "content-type": "application/json" }, () => "[".repeat(100_000) + "]".repeat(100_000)],
  ["REST, 4 MiB of small values", "/v1/repos/acme/widgets/simulator", { "content-type": "application/json" }, () => `{"service_yml": "a", "x": [${'"abcdefgh",'.repeat(380_000)}"a"]}`],
  ["REST, duplicate keys", "/v1/repos/acme/widgets/simulator", { "content-type": "application/json" }, () => '{"service_yml": "a: 1", "service_yml": "b: 2"}'],
  ["REST, a number of a million digits", "/v1/repos/acme/widgets/simulator", { "content-type": "application/json" }, () => `{"service_yml": ${"9".repeat(1_000_000)}}`],
  ["REST, gzip", "/v1/repos/acme/widgets/simulator", { "content-type": "application/json", "content-encoding": "gzip" }, () => gzipSync('{"service_yml": "a"}')],
  ["Connect, JSON nested 100,000 deep", `/${SimulatorService.typeName}/SimulateRepository`, { "content-type": "application/json" }, () => "[".repeat(100_000) + "]".repeat(100_000)],
  ["Connect, a gzip bomb (64 MiB of zeros)", `/${SimulatorService.typeName}/SimulateRepository`, { "content-type": "application/json", "content-encoding": "gzip" }, () => gzipSync(Buffer.alloc(64 * 1024 * 1024))],
  ["Connect, gzip that is not gzip", `/${SimulatorService.typeName}/SimulateRepository`, { "content-type": "application/proto", "content-encoding": "gzip" }, () => "not gzip"],
  ["Connect, over 4 MiB", `/${SimulatorService.typeName}/SimulateRepository`, { "content-type": "application/json" }, () => `{"service_yml": "${"x".repeat(5 * 1024 * 1024)}"}`],
];

describe("hostile bodies", () => {
  it.each(HOSTILE_BODIES)("%s: a 4xx in the error body, in bounded time", async (_, url, headers, body) => {
    const started = performance.now();
    const res = await fetch(server.url + url, {
      method: "POST",
      headers: { authorization: `Bearer ${server.adminKey}`, ...headers },
      body: body(),
    });
    const text = await res.text();
    expect(res.status, text.slice(0, 300)).toBeGreaterThanOrEqual(400);
    expect(res.status, text.slice(0, 300)).toBeLessThan(500);
    expect(CONNECT_CODES).toContain(JSON.parse(text).code);
    expect(performance.now() - started).toBeLessThan(ANSWER_BOUND_MS);
  });
});

describe("after the random requests", () => {
  it("the process is still up and ready", async () => {
    const ready = await fetch(`${server.url}/readyz`);
    expect(await ready.json()).toMatchObject({ status: "ready", checks: { postgresql: "ok", clickhouse: "ok" } });
    expect(server.child.exitCode).toBeNull();
  });
});
