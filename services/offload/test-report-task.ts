/**
 * Reading an uploaded test report as a task for a worker thread (docs/ci-insights.md "Ingest"): a
 * report is untrusted and can be large (200 MiB of OTLP decoded, 20 MiB of XML, half a million
 * cases), so its parsing and serialisation run here, under the pool's time and memory limits,
 * never on the event loop. A report that cannot be read comes back as `{ok: false}` with its
 * reason (an error's class does not survive the thread boundary).
 */
import { createHash } from "node:crypto";
import {
  parseJunit,
  parseOtlpTraces,
  ReportError,
  reportRows,
  type ParsedReport,
  type ReportRows,
  type ReportRun,
  type RowContext,
} from "../test-reports/index.js";

/**
 * What crosses to the thread. Run fields left "" (or 0) are taken from the report when it says
 * them; an empty `uploadId` is computed here (SHA-256 of the kind, the context and the bytes).
 */
export interface TestReportTask {
  kind: "junit" | "otlp";
  bytes: Uint8Array;
  /** The test framework of a JUnit report ("" when unknown). */
  framework: string;
  context: RowContext;
}

/**
 * The rows (what the service needs to know of them, and `data`: their JSONEachRow text as UTF-8
 * bytes, for ClickHouse as they are), and the run they were stored under; or why the report
 * cannot be read.
 */
export type TestReportResult =
  | { ok: true; rows: Omit<ReportRows, "text">; data: Uint8Array; run: ReportRun; uploadId: string }
  | { ok: false; message: string };

const UTF8 = new TextDecoder("utf-8", { fatal: true });
const UTF8_OUT = new TextEncoder();

/** Reads the report and serialises its rows. */
export function readTestReport(task: TestReportTask): TestReportResult {
  let report: ParsedReport;
  try {
    if (task.kind === "junit") {
      let text: string;
      try {
        text = UTF8.decode(task.bytes);
      } catch {
        return { ok: false, message: "is not valid UTF-8: send the XML encoded as UTF-8" };
      }
      report = parseJunit(text, task.framework);
    } else report = parseOtlpTraces(task.bytes);
  } catch (e) {
    if (e instanceof ReportError) return { ok: false, message: e.message };
    throw e;
  }
  // An upload's id: what it says and where it is stored, hashed (the receive time left out), so
  // that the same report sent again is recognised (docs/ci-insights.md "Ingest").
  const { receivedAt: _, uploadId: given, ...where } = task.context;
  const uploadId =
    given || createHash("sha256").update(task.kind).update(JSON.stringify(where)).update(task.bytes).digest("hex");
  const c = { ...task.context, uploadId };
  const r = report.run;
  const run: ReportRun = {
    pipeline: c.pipeline || r.pipeline,
    job: c.job || r.job,
    headSha: c.headSha || r.headSha,
    branch: c.branch || r.branch,
    baseBranch: c.baseBranch || r.baseBranch,
    runId: c.runId || r.runId || c.uploadId.slice(0, 16),
    attempt: c.attempt || r.attempt || 1,
  };
  // Encoded here: bytes cross to the event loop as one copy and go to ClickHouse as they are,
  // where a string of megabytes would be encoded again there (docs/ci-insights.md "Ingest").
  const { text, ...rows } = reportRows(report, { ...c, ...run });
  return { ok: true, rows, data: UTF8_OUT.encode(text), run, uploadId };
}
