/**
 * What CI Insights must know before a replay with flaky tests starts (docs/replay.md "Flaky
 * tests"): the product is enabled for the replayed repository (the queue reads test results only
 * then); the quarantined tests are quarantined on the base branch; and each known flaky test is
 * known flaky there, its health taught as a CI would have: at the setup commit on the base, one
 * run in which it failed and a re-run in which it passed (health `flaky`: both outcomes on one
 * commit, docs/ci-insights.md "Health"). The runs are stored under the local CI's pipeline and the
 * replay's check, as the local CI stores the runs of the queue's checks.
 */
import type { ReplayClients } from "./clients.js";
import type { FlakyTests } from "./flaky-tests.js";
import { CHECK_NAME } from "./replay-files.js";

/** The pipeline under which the local CI stores its test runs (services/main/ci-insights-wiring.ts). */
const LOCAL_PIPELINE = "yardmaster-ci";

/**
 * Enables CI Insights, quarantines and teaches the flaky tests (see the module comment).
 * @throws ConnectError from the service (e.g. a service without CI Insights)
 */
export async function teachFlakyTests(
  clients: ReplayClients,
  flaky: FlakyTests,
  at: { base: string; sha: string },
): Promise<void> {
  const { repo } = clients;
  await clients.products.setProductEnabled({ ...repo, product: "ci_insights", enabled: true });
  for (const testName of flaky.quarantined) {
    const reason = "flaky: quarantined by yardmaster replay --quarantined-tests";
    await clients.ciInsights.createQuarantine({ ...repo, testName, reason, branch: at.base });
  }
  if (flaky.known.length === 0) return;
  const report = (failed: boolean) =>
    `<testsuite name="replay">${flaky.known
      .map((t) => `<testcase name="${t}">${failed ? '<failure message="flaky"/>' : ""}</testcase>`)
      .join("")}</testsuite>`;
  for (const [attempt, failed] of [
    [1, true],
    [2, false],
  ] as const) {
    await clients.ciInsights.uploadJunit({
      ...repo,
      pipelineName: LOCAL_PIPELINE,
      jobName: CHECK_NAME,
      headSha: at.sha,
      branch: at.base,
      runId: "yardmaster-replay-flaky-tests",
      runAttempt: attempt,
      body: { contentType: "application/xml", data: new TextEncoder().encode(report(failed)), extensions: [] },
    });
  }
}
