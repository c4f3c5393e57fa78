/**
 * CI Insights against Mergify's CLI (docs/mergify-cli.md "CI Insights"), on the real server
 * process: the trace upload `mergify ci junit-process` sends (test/fixtures/ci-insights/, made by
 * make-otlp-fixture.ts from a real pytest report), replayed byte for byte with its headers, then
 * `mergify tests show|quarantine|quarantined|unquarantine` and junit-process's quarantine check,
 * each answer decoded with the client's structs (test/mergify-cli/ci-insights.ts). Then every
 * new route's refusals: the product switch, a foreign token, malformed protobuf, a gzip bomb, XML
 * with entities, 10,000 cases in one file — clear 4xx and nothing half-stored. How long these
 * uploads hold the server's event loop is measured by `npm run bench:ci` (a shared machine's
 * scheduling delays make a timed assertion here meaningless: docs/benchmarks.md).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AddQuarantineResponse,
  addQuarantine,
  CheckResponse,
  checkPath,
  detailsPath,
  errorText,
  looksLikeUuid,
  QuarantineList,
  quarantinesPath,
  SearchTestsResponse,
  searchPath,
  TestDetails,
  traceHeaders,
  tracesPath,
} from "../mergify-cli/ci-insights.js";
import { mergifyClient } from "../mergify-cli/http.js";
import { cliStdout } from "../support/cli.js";
import { eventually } from "../support/eventually.js";
import { parsePrometheusText, sampleSum } from "../support/prometheus-text.js";
import { ROOT, startServerProcess, type ServerProcess } from "../support/server-process.js";

const FIXTURES = path.join(ROOT, "test/fixtures/ci-insights");
let server: ServerProcess;
let client: ReturnType<typeof mergifyClient>;
let otlp: Buffer;

const cli = (...args: string[]) => cliStdout(server.cliEnv, args);
const json = async (r: Response) => (await r.json()) as any;
const post = (p: string, headers: Record<string, string>, body: Uint8Array | string) =>
  fetch(new URL(p, server.url), { method: "POST", headers, body });

/** The value of a series of `GET /metrics` (answered without credentials). */
async function metric(name: string, labels: Record<string, string>): Promise<number> {
  const res = await fetch(new URL("/metrics", server.url));
  return sampleSum(parsePrometheusText(await res.text()), name, labels);
}
const runsByOutcome = async () =>
  Object.fromEntries(
    await Promise.all(
      ["passed", "failed", "skipped", "error"].map(async (o) => [
        o,
        await metric("yardmaster_test_runs_total", { outcome: o }),
      ]),
    ),
  );

/** Test runs stored for the repository (every test's runs, through the search and runs routes). */
async function storedRuns(): Promise<number> {
  const found = SearchTestsResponse.parse((await client.get(searchPath("acme", "shop"), [["per_page", "1000"]])).json);
  let n = 0;
  for (const t of found.tests) {
    const runs = await client.get(`/v1/ci/acme/repositories/shop/tests/${t.test_id}/runs`, [["limit", "500"]]);
    n += (runs.json as { runs: unknown[] }).runs.length;
  }
  return n;
}

beforeAll(async () => {
  server = await startServerProcess();
  client = mergifyClient(server.url, server.adminKey);
  otlp = await readFile(path.join(FIXTURES, "junit-process.otlp.gz"));
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe("the product switch", () => {
  it("refuses an upload while ci_insights is disabled, stores nothing, and logs product.enabled when enabled", async () => {
    const res = await post(tracesPath("acme/shop"), traceHeaders(server.adminKey), otlp);
    expect(res.status).toBe(422);
    const body = await json(res);
    expect(body.code).toBe("failed_precondition");
    expect(errorText(body)).toContain("CI Insights is disabled on acme/shop");
    expect(await cli("product", "enable", "acme/shop", "ci_insights")).toContain("ci_insights enabled on acme/shop");
    expect(await storedRuns()).toBe(0);
  });
});

describe("mergify ci junit-process (replayed)", () => {
  it("accepts the gzipped OTLP upload and stores every test case with its outcome", async () => {
    expect(await runsByOutcome()).toEqual({ passed: 0, failed: 0, skipped: 0, error: 0 });
    const res = await post(tracesPath("acme/shop"), traceHeaders(server.adminKey), otlp);
    expect(res.status).toBe(200);
    expect((await json(res)).test_runs).toBe(5);
    // yardmaster_test_runs_total counts what was stored, by outcome (the CLI sends an <error> as failed).
    expect(await runsByOutcome()).toEqual({ passed: 2, failed: 2, skipped: 1, error: 0 });
    const found = SearchTestsResponse.parse((await client.get(searchPath("acme", "shop"))).json);
    expect(found.tests).toHaveLength(5);
    expect(new Set(found.tests.map((t) => `${t.pipeline_name} / ${t.job_name}`))).toEqual(
      new Set(["CI / tests (py3.12)"]),
    );
  });

  it("stores a replayed upload once", async () => {
    const res = await post(tracesPath("acme/shop"), traceHeaders(server.adminKey), otlp);
    expect(res.status).toBe(200);
    expect((await json(res)).test_runs).toBe(0);
    expect(await storedRuns()).toBe(5);
    expect(await runsByOutcome()).toEqual({ passed: 2, failed: 2, skipped: 1, error: 0 });
  });

  it("answers the quarantine check junit-process makes for its failing tests", async () => {
    const res = await client.post(checkPath("acme", "shop"), {
      tests_names: ["tests.test_func.test_failed", "tests.test_db.test_connect"],
      branch: "main",
    });
    expect(res.status).toBe(200);
    expect(CheckResponse.parse(res.json)).toEqual({
      quarantined_tests_names: [],
      non_quarantined_tests_names: ["tests.test_func.test_failed", "tests.test_db.test_connect"],
    });
  });
});

describe("mergify tests show", () => {
  it("finds a test by name and decodes its details", async () => {
    const search = await client.get(searchPath("acme", "shop"), [["test_name", "tests.test_func.test_failed"]]);
    const [identity] = SearchTestsResponse.parse(search.json).tests;
    expect(identity).toMatchObject({ pipeline_name: "CI", job_name: "tests (py3.12)" });
    const res = await client.get(detailsPath("acme", "shop", identity!.test_id), [["branch", "feature/login"]]);
    expect(res.status).toBe(200);
    const d = TestDetails.parse(res.json);
    expect(d).toMatchObject({
      repository: "shop",
      test_name: "tests.test_func.test_failed",
      health_status: "healthy",
      last_conclusion: "failed",
      failure_ratio: 1,
      success_ratio: 0,
      first_failure_commit: "4f9c2b7e1d3a5c8b0e6f4a2d9c7b5e3a1f0d8c6b",
      test_filepath: "tests/test_func.py",
      test_framework: "pytest",
      test_programming_language: "python",
    });
  });
});

describe("mergify tests quarantine | quarantined | unquarantine", () => {
  let id: string;
  it("quarantines (201 with an id the CLI takes for a UUID), lists, checks, and refuses a second one", async () => {
    const created = await client.post(
      quarantinesPath("acme", "shop"),
      addQuarantine("tests.test_db.test_connect", "flaky db", "main"),
    );
    expect(created.status).toBe(201);
    expect(await metric("yardmaster_quarantined_tests", { source: "manual" })).toBe(1);
    expect(await metric("yardmaster_quarantined_tests", { source: "auto" })).toBe(0);
    id = AddQuarantineResponse.parse(created.json).id;
    expect(looksLikeUuid(id)).toBe(true);
    const list = QuarantineList.parse((await client.get(quarantinesPath("acme", "shop"))).json);
    expect(list.quarantined_tests).toEqual([
      expect.objectContaining({
        id,
        test_name: "tests.test_db.test_connect",
        reason: "flaky db",
        branch: "main",
        source: "manual",
        is_recovered: false,
      }),
    ]);
    const check = await client.post(checkPath("acme", "shop"), {
      tests_names: ["tests.test_func.test_failed", "tests.test_db.test_connect"],
      branch: "main",
    });
    expect(CheckResponse.parse(check.json)).toEqual({
      quarantined_tests_names: ["tests.test_db.test_connect"],
      non_quarantined_tests_names: ["tests.test_func.test_failed"],
    });
    const other = await client.post(checkPath("acme", "shop"), {
      tests_names: ["tests.test_db.test_connect"],
      branch: "dev",
    });
    expect(CheckResponse.parse(other.json).quarantined_tests_names).toEqual([]);
    const again = await client.post(
      quarantinesPath("acme", "shop"),
      addQuarantine("tests.test_db.test_connect", "again"),
    );
    expect(again.status).toBe(409);
  });

  it("logs test.quarantined and test.dequarantined, and answers 404 for a quarantine already lifted", async () => {
    expect((await client.delete(`${quarantinesPath("acme", "shop")}/${id}`)).status).toBe(204);
    expect((await client.delete(`${quarantinesPath("acme", "shop")}/${id}`)).status).toBe(404);
    expect(await metric("yardmaster_quarantined_tests", { source: "manual" })).toBe(0);
    expect(QuarantineList.parse((await client.get(quarantinesPath("acme", "shop"))).json).quarantined_tests).toEqual(
      [],
    );
    await eventually(async () => {
      const logs = await client.get("/v1/repos/acme/shop/logs", [
        ["event_type", "test.quarantined"],
        ["event_type", "test.dequarantined"],
      ]);
      const types = (logs.json as { events: { type: string; metadata: Record<string, unknown> }[] }).events.map(
        (e) => e.type,
      );
      expect(types.sort()).toEqual(["test.dequarantined", "test.quarantined"]);
    }, 20_000);
  });
});

describe("refusals of the new routes", () => {
  const junitPath = `/v1/repos/acme/shop/ci/junit?pipeline_name=ci&job_name=unit&head_sha=${"a".repeat(40)}&branch=main`;
  const xml = (cases: string) =>
    `<?xml version="1.0"?><testsuites><testsuite name="s">${cases}</testsuite></testsuites>`;

  it("refuses a token of another repository on every route with 403", async () => {
    const foreign = (await cli("token", "create", "--repo", "other/thing", "--description", "foreign")).trim();
    const h = { authorization: `Bearer ${foreign}` };
    const calls: [string, string, Record<string, string>, string | Uint8Array | undefined][] = [
      ["POST", tracesPath("acme/shop"), traceHeaders(foreign), otlp],
      ["POST", junitPath, { ...h, "content-type": "application/xml" }, xml('<testcase name="a"/>')],
      ["GET", quarantinesPath("acme", "shop"), h, undefined],
      [
        "POST",
        quarantinesPath("acme", "shop"),
        { ...h, "content-type": "application/json" },
        JSON.stringify(addQuarantine("x", "y")),
      ],
      [
        "POST",
        checkPath("acme", "shop"),
        { ...h, "content-type": "application/json" },
        JSON.stringify({ tests_names: ["x"], branch: "main" }),
      ],
      ["GET", searchPath("acme", "shop"), h, undefined],
      ["GET", "/v1/ci/acme/repositories/shop/tests", h, undefined],
      ["GET", "/v1/ci/acme/repositories/shop/auto-quarantine", h, undefined],
      ["GET", "/v1/ci/acme/repositories/shop/retry-rules", h, undefined],
    ];
    for (const [method, p, headers, body] of calls) {
      const res = await fetch(new URL(p, server.url), { method, headers, body });
      expect(res.status, `${method} ${p}`).toBe(403);
    }
  });

  it("refuses bad bodies with clear 4xx and stores none of them; 10,000 cases in one file are stored", async () => {
    const before = await storedRuns();
    const malformed = await post(
      tracesPath("acme/shop"),
      traceHeaders(server.adminKey),
      gzipSync(Buffer.from("\xff\xff\xff not protobuf")),
    );
    expect(malformed.status).toBe(422);
    expect((await json(malformed)).message).toMatch(/^body: is not an OTLP ExportTraceServiceRequest/);
    // Building the bomb holds this process for seconds while its connection to the server sits
    // idle: the refusal must still be read (not "other side closed"), on a connection kept open.
    const bomb = gzipSync(Buffer.alloc(300 * 1024 * 1024));
    for (let i = 0; i < 3; i++) {
      const exploded = await post(tracesPath("acme/shop"), traceHeaders(server.adminKey), bomb);
      expect(exploded.status).toBe(413);
      expect(exploded.headers.get("keep-alive")).toBe("timeout=72");
      expect((await json(exploded)).message).toContain("inflates to more than 200 MiB");
    }
    const plain = await post(
      tracesPath("acme/shop"),
      { ...traceHeaders(server.adminKey), "content-type": "application/json" },
      "{}",
    );
    expect(plain.status).toBe(415);
    const entities = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><testsuites><testsuite name="s"><testcase name="&lol2;"/></testsuite></testsuites>`;
    const refused = await post(
      junitPath,
      { authorization: `Bearer ${server.adminKey}`, "content-type": "application/xml" },
      entities,
    );
    expect(refused.status).toBe(422);
    expect((await json(refused)).message).toContain("body: declares a DOCTYPE");
    const broken = await post(
      junitPath,
      { authorization: `Bearer ${server.adminKey}`, "content-type": "application/xml" },
      "<testsuites><testsuite>",
    );
    expect(broken.status).toBe(422);
    const gzipped = await post(
      junitPath,
      { authorization: `Bearer ${server.adminKey}`, "content-type": "application/xml", "content-encoding": "gzip" },
      gzipSync(xml("")),
    );
    expect(gzipped.status).toBe(415);
    const noSha = await post(
      "/v1/repos/acme/shop/ci/junit?pipeline_name=ci&job_name=unit&branch=main",
      { authorization: `Bearer ${server.adminKey}`, "content-type": "application/xml" },
      xml('<testcase name="a"/>'),
    );
    expect(noSha.status).toBe(422);
    expect((await json(noSha)).message).toContain("head_sha");
    expect(await storedRuns()).toBe(before);
    const many = Array.from(
      { length: 10_000 },
      (_, i) => `<testcase classname="big.Suite" name="case_${i}" time="0.001"/>`,
    ).join("");
    const big = await post(
      junitPath,
      { authorization: `Bearer ${server.adminKey}`, "content-type": "application/xml" },
      xml(many),
    );
    expect(big.status).toBe(200);
    expect((await json(big)).test_runs).toBe(10_000);
    // The refusals counted nothing; the 10,000 passed cases count once each.
    expect(await runsByOutcome()).toEqual({ passed: 10_002, failed: 2, skipped: 1, error: 0 });
  }, 120_000);
});
