/**
 * One test of a repository (docs/dashboard.md "Tests"): its health on the default branch with the
 * three ratios, first and last failure (commit, pull request), file and framework; its quarantine
 * with "Lift", or the form quarantining it with an owner and an expiry; its last 50 runs as a
 * uPlot chart of durations (failures apart) and a table (outcome, duration, commit, branch, run,
 * attempt, batch, pull requests, failure message). Read again every 5 s.
 */
import { ciInsights } from "../api/ci-insights-client.js";
import { poll, useLive } from "../api/live.js";
import type { RepositoryRef } from "../api/queue-view.js";
import { Chart } from "../components/chart.js";
import { QuarantineForm, QuarantineList } from "../components/quarantines.js";
import { ErrorNote, LiveBadge, NotFound, StateBadge, isNotFound } from "../components/status.js";
import { percent, toDate, when } from "../format.js";
import { Link, paths } from "../router.js";

const RUNS = 50;

/** "abc1234 (#12)": a commit cut to 7 characters and its pull request, or "—". */
function commitText(sha: string | undefined, pull?: bigint): string {
  if (!sha) return "—";
  return `${sha.slice(0, 7)}${pull ? ` (#${pull})` : ""}`;
}

/** The page of test `id` of `repo`. */
export function TestPage({ repo, id }: { repo: RepositoryRef; id: string }) {
  const live = useLive(
    poll(async (signal) => {
      const [details, runs] = await Promise.all([
        ciInsights.getTest({ ...repo, testId: id }, { signal }),
        ciInsights.listTestRuns({ ...repo, testId: id, limit: RUNS }, { signal }),
      ]);
      return { details, runs: runs.runs };
    }, 5000),
    [repo.owner, repo.repository, id],
  );
  if (isNotFound(live.error)) return <NotFound what="This repository has no test with this id." />;
  const v = live.value;
  const d = v?.details;
  // Oldest first for the chart; seconds since the epoch on x.
  const chronological = v ? [...v.runs].reverse() : [];
  const failed = (o: string) => o === "failed" || o === "error";
  return (
    <>
      <p>
        <Link href={paths.tests(repo.owner, repo.repository)}>All tests</Link>
      </p>
      <h1 style={{ overflowWrap: "anywhere" }}>
        {d?.testName ?? "Test"} <LiveBadge live={live.live} stopped={live.stopped} error={live.error} />
      </h1>
      <ErrorNote error={live.error} />
      {d && (
        <dl class="tiles" data-testid="test-details">
          <div>
            <dt>Health on {d.branch}</dt>
            <dd>
              <StateBadge state={d.healthStatus} />
            </dd>
          </div>
          <div>
            <dt>Last conclusion</dt>
            <dd>{d.lastConclusion || "—"}</dd>
          </div>
          <div>
            <dt>Runs</dt>
            <dd>{String(d.runs)}</dd>
          </div>
          <div>
            <dt>Success</dt>
            <dd>{percent(d.successRatio)}</dd>
          </div>
          <div>
            <dt>Failure</dt>
            <dd>{percent(d.failureRatio)}</dd>
          </div>
          <div>
            <dt>Flakiness</dt>
            <dd>{percent(d.flakinessRatio)}</dd>
          </div>
          <div>
            <dt>First failure</dt>
            <dd>
              {when(toDate(d.firstFailureAt))} {commitText(d.firstFailureCommit, d.firstFailurePull?.number)}
            </dd>
          </div>
          <div>
            <dt>Last failure</dt>
            <dd>
              {when(toDate(d.lastFailureAt))} {commitText(d.lastFailureCommit)}
            </dd>
          </div>
          <div>
            <dt>Job</dt>
            <dd>
              {d.pipelineName} / {d.jobName}
            </dd>
          </div>
          <div>
            <dt>File</dt>
            <dd style={{ overflowWrap: "anywhere" }}>{d.testFilepath ?? "—"}</dd>
          </div>
          <div>
            <dt>Framework</dt>
            <dd>{d.testFramework ?? "—"}</dd>
          </div>
        </dl>
      )}
      <section aria-labelledby="quarantine">
        <h2 id="quarantine">Quarantine</h2>
        {d?.quarantine && <QuarantineList repo={repo} quarantines={[d.quarantine]} changed={live.refresh} />}
        {d && !d.quarantine && (
          <>
            <p>Not quarantined: its failures fail their checks.</p>
            <QuarantineForm repo={repo} testName={d.testName} done={live.refresh} />
          </>
        )}
      </section>
      <section aria-labelledby="history">
        <h2 id="history">History</h2>
        {v && v.runs.length > 0 && (
          <Chart
            title="Duration per run"
            xs={chronological.map((r) => (toDate(r.receivedAt)?.getTime() ?? 0) / 1000)}
            series={[
              {
                label: "passed",
                values: chronological.map((r) => (failed(r.outcome) ? null : Number(r.durationMs))),
                color: "#1a7f37",
              },
              {
                label: "failed",
                values: chronological.map((r) => (failed(r.outcome) ? Number(r.durationMs) : null)),
                color: "#cf222e",
              },
            ]}
            format={(ms) => `${Math.round(ms)} ms`}
            caption={`The duration of its last ${v.runs.length} runs, failures in red, on every branch.`}
          />
        )}
        {v && (
          <div class="scroll">
            <table data-testid="runs">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Duration</th>
                  <th scope="col">Commit</th>
                  <th scope="col">Branch</th>
                  <th scope="col">Run</th>
                  <th scope="col">Batch</th>
                  <th scope="col">Pull requests</th>
                  <th scope="col">Failure</th>
                </tr>
              </thead>
              <tbody>
                {v.runs.map((r, i) => (
                  <tr key={i}>
                    <td>
                      <time title={toDate(r.receivedAt)?.toISOString()}>{when(toDate(r.receivedAt))}</time>
                    </td>
                    <td>
                      <StateBadge state={r.outcome} />
                    </td>
                    <td>{String(r.durationMs)} ms</td>
                    <td>
                      <code>{r.headSha.slice(0, 7)}</code>
                    </td>
                    <td>{r.branch}</td>
                    <td>
                      {r.runId || "—"}
                      {r.attempt > 1 && ` (attempt ${r.attempt})`}
                    </td>
                    <td>{r.batchId || "—"}</td>
                    <td>{r.pullRequests.length ? r.pullRequests.map((p) => `#${p}`).join(", ") : "—"}</td>
                    <td style={{ overflowWrap: "anywhere" }}>{r.failureMessage || "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
