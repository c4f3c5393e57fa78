/** Public surface of services/test-reports: reading JUnit XML and OTLP trace reports into rows (README.md). */
export { hasDoctype, parseJunit } from "./junit.js";
export { parseOtlpTraces } from "./otlp.js";
export {
  reportRows,
  testIdOf,
  TEST_ID_NAMESPACE,
  type OutcomeCounts,
  type ReportRows,
  type RowContext,
} from "./report-rows.js";
export {
  capFailure,
  MAX_CASES_PER_REPORT,
  MAX_FAILURE_CHARS,
  ReportError,
  type ParsedReport,
  type ReportRun,
  type TestCaseRun,
  type TestOutcome,
} from "./test-case.js";
