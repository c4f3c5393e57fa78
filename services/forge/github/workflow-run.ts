/**
 * What a `workflow_run` completed delivery says of a GitHub Actions run (webhook-events.ts maps
 * it; job-retries.ts acts on it): the shape both share.
 */

/**
 * A GitHub Actions workflow run that completed without success (`workflow_run` completed): what CI
 * Insights' job retry rules read (docs/ci-insights.md "Job retries"; job-retries.ts).
 */
export interface CompletedWorkflowRun {
  repo: string;
  /** The run's id (`run_id` of the Actions API). */
  runId: number;
  /** Its attempt (1, then 2 after a re-run...). */
  attempt: number;
  /** The workflow's name: a retry rule's pipeline. */
  workflow: string;
  headSha: string;
  /** The branch it ran on; "" when none (a tag). */
  branch: string;
  /** failure, timed_out, cancelled, startup_failure... */
  conclusion: string;
  url: string | null;
}
