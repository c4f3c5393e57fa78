/** Public surface of services/ci-insights (README.md; docs/ci-insights.md). */
export { createCiInsightsService } from "./ci-insights-service.js";
export type { CiInsightsDeps, CiInsightsFigures, PullSummary } from "./deps.js";
export { ingestReport, requireEnabled, type IngestInput, type IngestResult } from "./ingest.js";
export { migrateTestRuns } from "./test-runs.js";
export { sweepCiInsights, type SweepReport } from "./auto-quarantine.js";
export { decideRetry, retriesWanted, type FinishedJob, type RetryDecision } from "./retry-rules.js";
export { failingTestsOfCheck, type CheckRunRef, type FailingTest } from "./check-tests.js";
export { checkTestFacts, type CheckTestsAnswer, type CheckTestsQuery, type JobResults } from "./queue-facts.js";
export { BROKEN_RUNS, testHealth, type HealthStatus, type TestHealth } from "./health.js";
export { createKeptHealth, type KeptHealth, type KeptHealthOptions, type KeptKey } from "./kept-health.js";
export {
  flakyTestFiles,
  MAX_FLAKY_TEST_FILES,
  normaliseTestPath,
  type FlakyTestFilesQuery,
} from "./flaky-files.js";
