/**
 * Ingest (docs/ci-insights.md "Ingest"): an uploaded report (OTLP traces or JUnit XML) or a report
 * the local CI read becomes rows of `test_runs`. Refused while the repository's `ci_insights`
 * product is disabled. The report is read and its rows serialised in a worker thread
 * (offload/test-report-task.ts), which hands back UTF-8 bytes that ClickHouse takes as they are;
 * then one insert stores them all or none. A report already stored
 * (same bytes, same run context) is not stored again. The answer says which failing tests are
 * quarantined on the branch the tests target (the base branch when the report says it).
 */
import { DomainError, invalidField } from "../contracts/index.js";
import { readTestReportBounded } from "../offload/index.js";
import { productStates } from "../store/index.js";
import type { ReportRun } from "../test-reports/index.js";
import { nowOf, type CiInsightsDeps } from "./deps.js";
import { checkQuarantines } from "./quarantine.js";
import { clickHouseTime, insertTestRuns, uploadStored } from "./test-runs.js";

/** An upload, with what the caller knows of its run ("" or 0: the report says it, or nobody does). */
export interface IngestInput {
  repository: string;
  kind: "junit" | "otlp";
  /** The body as received (decompressed); moved to the worker thread. */
  bytes: Uint8Array;
  framework?: string;
  run: Partial<ReportRun>;
  batchId?: string;
  pullRequests?: number[];
}

/** What was stored. */
export interface IngestResult {
  testRuns: number;
  run: ReportRun;
  /** Whether this upload had been stored before (nothing stored now). */
  duplicate: boolean;
  /** Failing tests (failed or error), each once, with whether a quarantine holds for them on the branch. */
  failing: { testId: string; name: string; quarantined: boolean }[];
}

/**
 * Refuses when CI Insights is disabled on the repository.
 * @throws DomainError failed_precondition naming the product and how to enable it
 */
export async function requireEnabled(deps: CiInsightsDeps, repository: string): Promise<void> {
  if (!(await productStates(deps.db, repository)).ci_insights)
    throw new DomainError(
      "failed_precondition",
      `CI Insights is disabled on ${repository}: enable the ci_insights product first (yardmaster product enable ${repository} ci_insights)`,
    );
}

/**
 * Stores a report's test case executions.
 * @throws DomainError failed_precondition (product disabled); invalid_argument naming `body` for a
 *   report that cannot be read, or without the commit or branch it tested; resource_exhausted /
 *   WorkLimitError when the worker threads are busy or the report exceeds their limits
 */
export async function ingestReport(deps: CiInsightsDeps, input: IngestInput): Promise<IngestResult> {
  await requireEnabled(deps, input.repository);
  const r = input.run;
  const result = await readTestReportBounded({
    kind: input.kind,
    bytes: input.bytes,
    framework: input.framework ?? "",
    context: {
      repository: input.repository,
      pipeline: r.pipeline ?? "",
      job: r.job ?? "",
      headSha: r.headSha ?? "",
      branch: r.branch ?? "",
      baseBranch: r.baseBranch ?? "",
      runId: r.runId ?? "",
      attempt: r.attempt ?? 0,
      batchId: input.batchId ?? "",
      pullRequests: input.pullRequests ?? [],
      uploadId: "",
      receivedAt: clickHouseTime(nowOf(deps)),
    },
  });
  if (!result.ok) throw invalidField("body", result.message);
  const { rows, data, run, uploadId } = result;
  if (rows.count > 0 && run.headSha === "")
    throw invalidField("body", "does not say the commit tested (the vcs.ref.head.revision resource attribute)");
  if (rows.count > 0 && run.branch === "")
    throw invalidField("body", "does not say the branch tested (the vcs.ref.head.name resource attribute)");
  const duplicate = rows.count > 0 && (await uploadStored(deps.clickhouse, input.repository, uploadId));
  if (!duplicate) {
    await insertTestRuns(deps.clickhouse, data);
    deps.keptHealth?.stored(input.repository);
    deps.figures?.testRunsStored(rows.outcomes);
  }
  const names = rows.failing.map((f) => f.name);
  // Quarantines are asked of the branch the tests target (a pull request's base), as Mergify's CLI does.
  const { byName } = await checkQuarantines(deps, input.repository, names, run.baseBranch || run.branch);
  return {
    testRuns: duplicate ? 0 : rows.count,
    run,
    duplicate,
    failing: rows.failing.map((f) => ({ ...f, quarantined: byName.has(f.name) })),
  };
}
