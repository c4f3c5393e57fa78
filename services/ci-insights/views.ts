/**
 * Stored rows and computed figures as CiInsightsService messages (ci_insights.proto), in the
 * shapes Mergify's CLI decodes (docs/mergify-cli.md "CI Insights").
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  QuarantineSchema,
  TestDetailsSchema,
  TestRunSchema,
  TestSummarySchema,
  type Quarantine,
  type TestDetails,
  type TestRun,
  type TestSummary,
} from "../../gen/yardmaster/v1/ci_insights_pb.js";
import type { ciInsightsStore } from "../store/index.js";
import type { PullSummary } from "./deps.js";
import type { TestHealth } from "./health.js";
import { fromClickHouseTime, type TestRunRow } from "./test-runs.js";

const ts = (d: Date | null) => (d === null ? undefined : timestampFromDate(d));

/** A quarantine as the API shows it. */
export function quarantineView(q: ciInsightsStore.QuarantineRow): Quarantine {
  return create(QuarantineSchema, {
    id: q.id,
    testName: q.testName,
    reason: q.reason,
    branch: q.branch ?? undefined,
    createdAt: timestampFromDate(q.createdAt),
    source: q.source,
    isRecovered: q.isRecovered,
    assignee: q.assignee ?? undefined,
    expiresAt: ts(q.expiresAt),
    healthStatusAtEvent: q.healthStatusAtEvent,
  });
}

/** `passed`, `failed` or `skipped` (an error is a failure, as Mergify's CLI reports it). */
const conclusion = (o: TestHealth["lastOutcome"]) => (o === "error" ? "failed" : o);

/** A test's details (`mergify tests show`). */
export function testDetailsView(
  repository: string,
  branch: string,
  h: TestHealth,
  pull: PullSummary | null,
  quarantine: ciInsightsStore.QuarantineRow | null,
): TestDetails {
  const [, name] = repository.split("/");
  return create(TestDetailsSchema, {
    repository: name,
    testName: h.name,
    testId: h.testId,
    healthStatus: h.status,
    lastConclusion: conclusion(h.lastOutcome),
    failureRatio: h.failureRatio,
    flakinessRatio: h.flakinessRatio,
    successRatio: h.successRatio,
    flakyDetectionEnabled: true,
    firstFailureAt: ts(h.firstFailureAt),
    firstFailureCommit: h.firstFailureCommit ?? undefined,
    firstFailurePull:
      pull === null
        ? undefined
        : {
            ...pull,
            id: BigInt(pull.id),
            number: BigInt(pull.number),
            user: { id: BigInt(pull.user.id), login: pull.user.login },
          },
    lastFailureAt: ts(h.lastFailureAt),
    lastSuccessAt: ts(h.lastSuccessAt),
    testFramework: h.framework || undefined,
    testProgrammingLanguage: h.language || undefined,
    testFilepath: h.file || undefined,
    testFunctionName: h.name,
    pipelineName: h.pipeline,
    jobName: h.job,
    branch,
    runs: BigInt(h.runs),
    lastFailureCommit: h.lastFailureCommit ?? undefined,
    quarantine: quarantine === null ? undefined : quarantineView(quarantine),
  });
}

/** A test in the list, with its failures per day. */
export function testSummaryView(
  h: TestHealth,
  daily: readonly number[],
  quarantine: ciInsightsStore.QuarantineRow | null,
): TestSummary {
  return create(TestSummarySchema, {
    testId: h.testId,
    testName: h.name,
    pipelineName: h.pipeline,
    jobName: h.job,
    healthStatus: h.status,
    lastConclusion: conclusion(h.lastOutcome),
    successRatio: h.successRatio,
    failureRatio: h.failureRatio,
    flakinessRatio: h.flakinessRatio,
    runs: BigInt(h.runs),
    dailyFailures: daily.map((n) => BigInt(n)),
    quarantine: quarantine === null ? undefined : quarantineView(quarantine),
    lastRunAt: timestampFromDate(h.lastRunAt),
  });
}

/** One stored execution. */
export function testRunView(r: TestRunRow): TestRun {
  return create(TestRunSchema, {
    outcome: r.outcome,
    durationMs: BigInt(r.duration_ms),
    headSha: r.head_sha,
    branch: r.branch,
    runId: r.run_id,
    attempt: Number(r.attempt),
    batchId: r.batch_id,
    pullRequests: r.pull_requests.map((n) => BigInt(n)),
    receivedAt: timestampFromDate(fromClickHouseTime(r.received_at)),
    failureMessage: r.failure_message,
  });
}
