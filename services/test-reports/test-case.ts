/**
 * A test case execution as read from a report, and the run it belongs to (docs/ci-insights.md
 * "Ingest"). Outcomes are JUnit's four: a `<failure>` is `failed`, an `<error>` is `error`.
 */

/** How one execution of a test case ended. */
export type TestOutcome = "passed" | "failed" | "skipped" | "error";

/** One test case execution. */
export interface TestCaseRun {
  /** `<classname>.<name>`, or `<name>` without a classname (as Mergify's CLI composes it). */
  name: string;
  /** The enclosing suite's name ("unnamed testsuite" when it has none). */
  suite: string;
  /** Source file, as the report gives it; "" when unknown. */
  file: string;
  /** Line in `file`; 0 when unknown. */
  line: number;
  outcome: TestOutcome;
  /** Duration in milliseconds (0 when the report gives none). */
  durationMs: number;
  /** The failure's type and message, then its text, cut to {@link MAX_FAILURE_CHARS}; "" when it passed. */
  failureMessage: string;
  /** The test framework (`pytest`, `vitest`...); "" when unknown. */
  framework: string;
  /** The programming language; "" when unknown. */
  language: string;
}

/** What a report says about the run it comes from (OTLP resource attributes); "" when it says nothing. */
export interface ReportRun {
  pipeline: string;
  job: string;
  headSha: string;
  branch: string;
  baseBranch: string;
  runId: string;
  attempt: number;
}

/** A parsed report. */
export interface ParsedReport {
  cases: TestCaseRun[];
  run: ReportRun;
}

/** The longest failure text kept per execution, in characters (the start of a stack trace says the most). */
export const MAX_FAILURE_CHARS = 4096;

/** Most test case executions one report may hold; more is refused whole (docs/ci-insights.md "Limits"). */
export const MAX_CASES_PER_REPORT = 500_000;

/** A report that cannot be read: its message names what is wrong, for a 422 naming `body`. */
export class ReportError extends Error {
  override readonly name = "ReportError";
}

/** An empty run description. */
export const emptyRun = (): ReportRun => ({
  pipeline: "",
  job: "",
  headSha: "",
  branch: "",
  baseBranch: "",
  runId: "",
  attempt: 0,
});

/** `text` cut to {@link MAX_FAILURE_CHARS} characters. */
export function capFailure(text: string): string {
  return text.length <= MAX_FAILURE_CHARS ? text : `${text.slice(0, MAX_FAILURE_CHARS - 1)}…`;
}
