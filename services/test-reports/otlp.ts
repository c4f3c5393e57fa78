/**
 * OTLP trace export → test case executions, for the spans Mergify's CLI writes (crates/mergify-ci/
 * src/junit_process/spans.rs): one span per test case with `test.scope` = `case`,
 * `test.case.name`, `test.case.result.status` (`passed`, `failed` or `skipped`; the CLI writes a
 * JUnit `<error>` as failed), `code.filepath`, `code.lineno`, `exception.type|message|stacktrace`,
 * `test.framework`, `test.language`; suite and session spans (`test.scope` `suite`, `session`)
 * carry no result and are skipped. The resource says the run: `cicd.pipeline.name`,
 * `mergify.test.job.name` (else `cicd.pipeline.task.name`), `vcs.ref.head.revision`,
 * `vcs.ref.head.name`, `vcs.ref.base.name`, `cicd.pipeline.run.id` (else `test.run.id`),
 * `cicd.pipeline.run.attempt`. Durations: the CLI starts a case span `time × 10e9` ns before its
 * end (a factor 10 too many, kept by Mergify's backend, spans.rs `case_start_time`), so a span
 * of d ns is d / 10⁷ ms. Decoded with protobuf-es (the vendored opentelemetry-proto v1.7.0).
 * docs/ci-insights.md "Ingest".
 */
import { fromBinary } from "@bufbuild/protobuf";
import { ExportTraceServiceRequestSchema } from "../../gen/opentelemetry/proto/collector/trace/v1/trace_service_pb.js";
import type { KeyValue } from "../../gen/opentelemetry/proto/common/v1/common_pb.js";
import { Status_StatusCode } from "../../gen/opentelemetry/proto/trace/v1/trace_pb.js";
import {
  capFailure,
  emptyRun,
  MAX_CASES_PER_REPORT,
  ReportError,
  type ParsedReport,
  type ReportRun,
  type TestCaseRun,
  type TestOutcome,
} from "./test-case.js";

/** Attribute values as plain scalars (arrays and maps, which the CLI never writes, are skipped). */
function attributes(list: readonly KeyValue[]): Map<string, string | number | boolean> {
  const out = new Map<string, string | number | boolean>();
  for (const kv of list) {
    const v = kv.value?.value;
    if (v === undefined) continue;
    if (v.case === "stringValue" || v.case === "boolValue" || v.case === "doubleValue") out.set(kv.key, v.value);
    else if (v.case === "intValue") out.set(kv.key, Number(v.value));
  }
  return out;
}

const str = (m: Map<string, string | number | boolean>, key: string): string => {
  const v = m.get(key);
  return v === undefined ? "" : String(v);
};

const OUTCOMES: Record<string, TestOutcome> = {
  passed: "passed",
  failed: "failed",
  skipped: "skipped",
  error: "error",
};

/**
 * Reads an `ExportTraceServiceRequest` (protobuf binary, already decompressed).
 * @throws ReportError when the bytes are not such a message, or hold more than MAX_CASES_PER_REPORT cases
 */
export function parseOtlpTraces(bytes: Uint8Array): ParsedReport {
  let request;
  try {
    request = fromBinary(ExportTraceServiceRequestSchema, bytes);
  } catch (e) {
    throw new ReportError(`is not an OTLP ExportTraceServiceRequest in protobuf: ${(e as Error).message}`);
  }
  const cases: TestCaseRun[] = [];
  let run: ReportRun = emptyRun();
  for (const resourceSpans of request.resourceSpans) {
    const resource = attributes(resourceSpans.resource?.attributes ?? []);
    const here = runOf(resource);
    // One upload is one run; a request with several resources keeps the first one that says something.
    if (run.pipeline === "" && run.headSha === "") run = here;
    for (const scope of resourceSpans.scopeSpans) {
      for (const span of scope.spans) {
        const a = attributes(span.attributes);
        if (a.get("test.scope") !== "case") continue;
        if (cases.length >= MAX_CASES_PER_REPORT)
          throw new ReportError(`holds more than ${MAX_CASES_PER_REPORT} test cases; split it into several uploads`);
        const status = str(a, "test.case.result.status");
        const outcome: TestOutcome =
          OUTCOMES[status] ?? (span.status?.code === Status_StatusCode.ERROR ? "failed" : "passed");
        const failed = outcome === "failed" || outcome === "error";
        const head = [str(a, "exception.type"), str(a, "exception.message")].filter((s) => s !== "").join(": ");
        const nanos =
          span.endTimeUnixNano > span.startTimeUnixNano ? span.endTimeUnixNano - span.startTimeUnixNano : 0n;
        const line = Number.parseInt(str(a, "code.lineno"), 10);
        cases.push({
          name: str(a, "test.case.name") || span.name,
          suite: "",
          file: str(a, "code.filepath"),
          line: Number.isFinite(line) && line > 0 ? line : 0,
          outcome,
          durationMs: Math.round(Number(nanos / 10_000n) / 1000),
          failureMessage: failed
            ? capFailure([head, str(a, "exception.stacktrace")].filter((s) => s !== "").join("\n"))
            : "",
          framework: str(a, "test.framework"),
          language: str(a, "test.language"),
        });
      }
    }
  }
  return { cases, run };
}

function runOf(r: Map<string, string | number | boolean>): ReportRun {
  const attempt = Number(r.get("cicd.pipeline.run.attempt") ?? 0);
  return {
    pipeline: str(r, "cicd.pipeline.name"),
    job: str(r, "mergify.test.job.name") || str(r, "cicd.pipeline.task.name"),
    headSha: str(r, "vcs.ref.head.revision"),
    branch: str(r, "vcs.ref.head.name"),
    baseBranch: str(r, "vcs.ref.base.name"),
    runId: str(r, "cicd.pipeline.run.id") || str(r, "test.run.id"),
    attempt: Number.isInteger(attempt) && attempt > 0 && attempt < 2 ** 31 ? attempt : 0,
  };
}
