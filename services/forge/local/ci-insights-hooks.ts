/**
 * What the local CI asks CI Insights (docs/ci-insights.md "Local CI"): the CI worker (ci-worker.ts)
 * hands it a check's JUnit reports and its failed results; services/main wires the answers.
 */
import type { CheckResult, ReportsInput, ReportsVerdict } from "./ci/index.js";

/** The CI job a check belongs to, as CI Insights labels its test runs. */
export interface LocalCiJob {
  repository: string;
  sha: string;
  /** The branch the job runs for (a pull request's head, a batch's draft branch); null for a bare commit. */
  branch: string | null;
  jobId: number;
  /** The job's claims so far (1 on the first run). */
  attempt: number;
}

/**
 * CI Insights for the local CI (docs/ci-insights.md "Local CI"), wired by services/main: stores a
 * check's JUnit reports (and says whether its failure is only quarantined tests), and decides the
 * retries of failed checks.
 */
export interface LocalCiInsights {
  reports(job: LocalCiJob, input: ReportsInput): Promise<ReportsVerdict>;
  retry(job: LocalCiJob, result: CheckResult): Promise<"job" | "pipeline" | null>;
}
