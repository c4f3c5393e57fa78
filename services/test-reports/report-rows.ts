/**
 * The rows CI Insights stores for a parsed report (ClickHouse `test_runs`, docs/ci-insights.md
 * "Storage"): one per test case execution, as JSONEachRow text so that the worker thread that
 * parsed the report also serialises it, and the server's event loop only hands one string to
 * ClickHouse. A test's id is a UUID (version 5, RFC 9562 §5.5) of its repository, pipeline, job
 * and name: the same test gets the same id in every upload, and another job's test of the same
 * name is another test.
 */
import { v5 as uuidv5 } from "uuid";
import type { ParsedReport, TestOutcome } from "./test-case.js";

/** The namespace of test ids (a random UUID fixed once; changing it would change every test's id). */
export const TEST_ID_NAMESPACE = "6f1d7c2e-35a4-4c4e-9b8e-0b6f3d2f9a17";

/** A test's id: UUIDv5 of `repository`, `pipeline`, `job` and `name` joined by NUL characters. */
export function testIdOf(repository: string, pipeline: string, job: string, name: string): string {
  return uuidv5(`${repository}\u0000${pipeline}\u0000${job}\u0000${name}`, TEST_ID_NAMESPACE);
}

/** What every row of one upload shares; times are UTC. */
export interface RowContext {
  repository: string;
  pipeline: string;
  job: string;
  headSha: string;
  branch: string;
  baseBranch: string;
  runId: string;
  attempt: number;
  /** The merge queue batch the run tested; "" when none. */
  batchId: string;
  pullRequests: number[];
  /** SHA-256 of the upload, hex: a report sent twice is stored once (docs/ci-insights.md "Ingest"). */
  uploadId: string;
  /** ClickHouse DateTime64(3) text, UTC: `2026-05-01 12:00:00.000`. */
  receivedAt: string;
}

/** Counts by outcome. */
export type OutcomeCounts = Record<TestOutcome, number>;

/** The rows of a report and what the service needs to know about them without reading them again. */
export interface ReportRows {
  /** JSONEachRow text, one line per execution. */
  text: string;
  count: number;
  outcomes: OutcomeCounts;
  /** The failing (failed or error) tests, each name once, in report order. */
  failing: { testId: string; name: string }[];
}

/** The rows of `report` under `context`. */
export function reportRows(report: ParsedReport, context: RowContext): ReportRows {
  const outcomes: OutcomeCounts = { passed: 0, failed: 0, skipped: 0, error: 0 };
  const failing = new Map<string, string>();
  const lines: string[] = [];
  const ids = new Map<string, string>();
  for (const c of report.cases) {
    let id = ids.get(c.name);
    if (id === undefined) {
      id = testIdOf(context.repository, context.pipeline, context.job, c.name);
      ids.set(c.name, id);
    }
    outcomes[c.outcome]++;
    if ((c.outcome === "failed" || c.outcome === "error") && !failing.has(c.name)) failing.set(c.name, id);
    lines.push(
      JSON.stringify({
        repository: context.repository,
        pipeline: context.pipeline,
        job: context.job,
        test_id: id,
        name: c.name,
        file: c.file,
        line: c.line,
        outcome: c.outcome,
        duration_ms: Math.min(Math.max(c.durationMs, 0), 4_294_967_295),
        head_sha: context.headSha,
        branch: context.branch,
        base_branch: context.baseBranch,
        run_id: context.runId,
        attempt: context.attempt,
        batch_id: context.batchId,
        pull_requests: context.pullRequests,
        framework: c.framework,
        language: c.language,
        failure_message: c.failureMessage,
        upload_id: context.uploadId,
        received_at: context.receivedAt,
      }),
    );
  }
  return {
    text: lines.length ? `${lines.join("\n")}\n` : "",
    count: lines.length,
    outcomes,
    failing: [...failing].map(([name, testId]) => ({ testId, name })),
  };
}
