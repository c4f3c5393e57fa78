/**
 * Rows of CI Insights' ClickHouse table of test executions (services/ci-insights/test-runs.ts), as
 * the tests that store executions directly build them: one test id per test name, and each row a
 * second after the previous one (`received_at`, UTC).
 */
import { randomUUID } from "node:crypto";

/** One execution: the test, its outcome, and where it ran (job, head SHA, branch, base branch, attempt). */
export interface TestExecution {
  repository: string;
  name: string;
  /** The test's file as its report named it. */
  file: string;
  outcome: "passed" | "failed";
  job: string;
  sha: string;
  branch: string;
  baseBranch: string;
  attempt: number;
}

/** Builds rows; `idOf(name)` is the test id given to `name` (undefined before its first row). */
export interface TestRunRows {
  (e: TestExecution): Record<string, unknown>;
  idOf(name: string): string | undefined;
}

/** A row builder whose first row is received a second after `startMs` (epoch ms). */
export function testRunRows(startMs: number): TestRunRows {
  const ids = new Map<string, string>();
  let at = startMs;
  const build = (e: TestExecution): Record<string, unknown> => {
    if (!ids.has(e.name)) ids.set(e.name, randomUUID());
    at += 1000;
    return {
      repository: e.repository,
      pipeline: "ci",
      job: e.job,
      test_id: ids.get(e.name),
      name: e.name,
      file: e.file,
      line: 0,
      outcome: e.outcome,
      duration_ms: 10,
      head_sha: e.sha,
      branch: e.branch,
      base_branch: e.baseBranch,
      run_id: `${e.sha}-${e.job}`,
      attempt: e.attempt,
      batch_id: "",
      pull_requests: [],
      framework: "junit",
      language: "",
      failure_message: e.outcome === "failed" ? `${e.name} failed` : "",
      upload_id: randomUUID(),
      received_at: new Date(at).toISOString().replace("T", " ").replace("Z", ""),
    };
  };
  return Object.assign(build, { idOf: (name: string) => ids.get(name) });
}
