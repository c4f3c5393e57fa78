/**
 * Reading test reports (services/test-reports/, docs/ci-insights.md "Ingest"): JUnit XML as
 * Mergify's CLI reads it (junit.rs), entities refused with the DOCTYPE, and the OTLP spans the CLI
 * writes (the committed fixture, test/fixtures/ci-insights/) read back into the same cases.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { parseJunit, parseOtlpTraces, ReportError, reportRows, testIdOf } from "../../services/test-reports/index.js";
import { ROOT } from "../support/server-process.js";

const FIXTURES = path.join(ROOT, "test/fixtures/ci-insights");
const pytest = readFileSync(path.join(FIXTURES, "pytest-report.xml"), "utf8");

describe("JUnit XML", () => {
  it("names cases <classname>.<name>, reads outcomes, times and failures", () => {
    const { cases } = parseJunit(pytest, "pytest");
    expect(cases.map((c) => [c.name, c.outcome, c.durationMs])).toEqual([
      ["tests.test_func.test_success", "passed", 12],
      ["tests.test_func.test_failed", "failed", 104],
      ["tests.test_func.test_skipped", "skipped", 0],
      ["tests.test_db.test_connect", "error", 200],
      ["test_bare", "passed", 10],
    ]);
    expect(cases[1]!.failureMessage).toMatch(/^assert 1 == 0\ndef test_failed\(\) -> None:/);
    expect(cases[3]!.failureMessage).toMatch(/^ConnectionError: connection refused\nTraceback/);
    expect(cases[0]).toMatchObject({ file: "tests/test_func.py", line: 3, suite: "pytest", framework: "pytest" });
  });

  it("reads a bare testsuite root, nested suites and namespaces", () => {
    const nested = parseJunit(
      '<testsuite name="outer"><testsuite name="inner"><testcase classname="C" name="n"/></testsuite></testsuite>',
    );
    expect(nested.cases.map((c) => [c.name, c.suite])).toEqual([["C.n", "inner"]]);
    const ns = parseJunit(
      '<j:testsuites xmlns:j="x"><j:testsuite name="s"><j:testcase classname="C" name="t"/></j:testsuite></j:testsuites>',
    );
    expect(ns.cases.map((c) => c.name)).toEqual(["C.t"]);
  });

  it.each([
    [
      "a DOCTYPE with entities",
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><testsuites/>',
      /declares a DOCTYPE/,
    ],
    ["a DOCTYPE after a comment", "<!-- c --><!doctype x><testsuite/>", /declares a DOCTYPE/],
    ["XML that is not well-formed", "<testsuites><testsuite>", /is not well-formed XML: .*\(line 1, column/],
    ["another root", "<html/>", /no testsuites or testsuite root/],
    ["no suite", "<testsuites/>", /no testsuite element/],
  ])("refuses %s", (_, xml, message) => {
    expect(() => parseJunit(xml)).toThrow(ReportError);
    expect(() => parseJunit(xml)).toThrow(message);
  });

  it("decodes XML's own entities and numeric references, and nothing more", () => {
    const { cases } = parseJunit('<testsuite><testcase name="a &lt;b&gt; &#65;&#x42; &amp;c"/></testsuite>');
    expect(cases[0]!.name).toBe("a <b> AB &c");
  });
});

describe("OTLP traces as Mergify's CLI writes them", () => {
  it("reads the fixture's case spans back into the report's cases, with the run from the resource", () => {
    const report = parseOtlpTraces(gunzipSync(readFileSync(path.join(FIXTURES, "junit-process.otlp.gz"))));
    const junit = parseJunit(pytest);
    expect(report.cases.map((c) => [c.name, c.durationMs])).toEqual(junit.cases.map((c) => [c.name, c.durationMs]));
    // The CLI writes an <error> as failed.
    expect(report.cases.map((c) => c.outcome)).toEqual(["passed", "failed", "skipped", "failed", "passed"]);
    expect(report.cases[3]!.failureMessage).toMatch(/^ConnectionError: connection refused/);
    expect(report.run).toEqual({
      pipeline: "CI",
      job: "tests (py3.12)",
      headSha: "4f9c2b7e1d3a5c8b0e6f4a2d9c7b5e3a1f0d8c6b",
      branch: "feature/login",
      baseBranch: "main",
      runId: "12345678901",
      attempt: 2,
    });
  });

  it("refuses bytes that are not an ExportTraceServiceRequest", () => {
    expect(() => parseOtlpTraces(Uint8Array.from([0xff, 0xff, 0xff, 0x01]))).toThrow(
      /is not an OTLP ExportTraceServiceRequest/,
    );
  });
});

describe("rows", () => {
  it("gives a test the same id in every upload, and another job's test another id", () => {
    const a = testIdOf("acme/shop", "CI", "unit", "t");
    expect(testIdOf("acme/shop", "CI", "unit", "t")).toBe(a);
    expect(testIdOf("acme/shop", "CI", "e2e", "t")).not.toBe(a);
    const rows = reportRows(parseJunit(pytest), {
      repository: "acme/shop",
      pipeline: "CI",
      job: "unit",
      headSha: "a".repeat(40),
      branch: "main",
      baseBranch: "",
      runId: "1",
      attempt: 1,
      batchId: "",
      pullRequests: [7],
      uploadId: "u",
      receivedAt: "2026-05-01 00:00:00.000",
    });
    expect(rows.count).toBe(5);
    expect(rows.outcomes).toEqual({ passed: 2, failed: 1, skipped: 1, error: 1 });
    expect(rows.failing.map((f) => f.name)).toEqual(["tests.test_func.test_failed", "tests.test_db.test_connect"]);
    expect(JSON.parse(rows.text.split("\n")[0]!)).toMatchObject({
      test_id: testIdOf("acme/shop", "CI", "unit", "tests.test_func.test_success"),
      pull_requests: [7],
    });
  });
});
