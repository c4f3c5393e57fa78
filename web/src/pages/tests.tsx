/**
 * The Tests page of a repository (docs/dashboard.md "Tests", docs/ci-insights.md): its tests by
 * health (broken, then flaky, then by failure ratio) with their success, failure and flakiness
 * ratios, runs, failures per day over 14 days as a sparkline, last run and quarantine, 100 per
 * page (the page token in the URL, `page`); a filter by health kept in the URL (`health`), with
 * the number of tests of each status; the quarantines with "Lift" and the form quarantining a test
 * with an owner and an expiry; the auto-quarantine settings. Read again every 5 s: no event
 * announces a stored test run, so the page polls, like the configuration page.
 */
import { ciInsights } from "../api/ci-insights-client.js";
import { poll, useLive } from "../api/live.js";
import type { RepositoryRef } from "../api/queue-view.js";
import { AutoQuarantineForm } from "../components/auto-quarantine.js";
import { QuarantineForm, QuarantineList, QuarantineNote } from "../components/quarantines.js";
import { Sparkline } from "../components/sparkline.js";
import { ErrorNote, LiveBadge, StateBadge } from "../components/status.js";
import { percent, relative, toDate } from "../format.js";
import { Link, navigate, paths } from "../router.js";

/** How often the page reads its data again, in milliseconds. */
const REFRESH_MS = 5000;
const HEALTHS = ["broken", "flaky", "healthy"] as const;
/** Tests per page: the worst first, so the first page holds what needs attention. */
const PAGE_SIZE = 100;

/** The Tests page of `repo`; `url` carries the `health` filter. */
export function TestsPage({ repo, url }: { repo: RepositoryRef; url: URL }) {
  const health = url.searchParams.get("health") ?? "";
  const page = url.searchParams.get("page") ?? "";
  const live = useLive(
    poll(async (signal) => {
      const [tests, quarantines, settings] = await Promise.all([
        ciInsights.listTests(
          { ...repo, healthStatus: health ? [health] : [], perPage: PAGE_SIZE, pageToken: page },
          { signal },
        ),
        ciInsights.listQuarantines(repo, { signal }),
        ciInsights.getAutoQuarantine(repo, { signal }),
      ]);
      return {
        tests: tests.tests,
        branch: tests.branch,
        totals: tests.totals,
        next: tests.nextPageToken,
        quarantines: quarantines.quarantinedTests,
        settings,
      };
    }, REFRESH_MS),
    [repo.owner, repo.repository, health, page],
  );
  const v = live.value;
  const listUrl = (h: string, p: string) => {
    const q = new URLSearchParams([...(h ? [["health", h]] : []), ...(p ? [["page", p]] : [])]);
    return `${paths.tests(repo.owner, repo.repository)}${q.size ? `?${q}` : ""}`;
  };
  return (
    <>
      <h1>
        Tests <LiveBadge live={live.live} stopped={live.stopped} error={live.error} />
      </h1>
      <ErrorNote error={live.error} />
      <section aria-labelledby="by-health">
        <h2 id="by-health">By health{v && ` on ${v.branch}`}</h2>
        <form class="inline" aria-label="Filter by health">
          <label>
            Health{" "}
            <select
              name="health"
              value={health}
              onChange={(e) => {
                const h = (e.currentTarget as HTMLSelectElement).value;
                navigate(listUrl(h, ""));
              }}
            >
              <option value="">every test</option>
              {HEALTHS.map((h) => (
                <option key={h} value={h}>
                  {h}
                  {v?.totals && ` (${v.totals[h]})`}
                </option>
              ))}
            </select>
          </label>
        </form>
        {v && v.tests.length === 0 && (
          <p>
            No test results{health && ` for ${health} tests`} on {v.branch}: upload JUnit reports or OTLP traces, or
            name a check's reports with <code>junit:</code> in .yardmaster/ci.yml (docs/ci-insights.md).
          </p>
        )}
        {v && v.tests.length > 0 && (
          <div class="scroll">
            <table data-testid="tests">
              <thead>
                <tr>
                  <th scope="col">Health</th>
                  <th scope="col">Test</th>
                  <th scope="col">Job</th>
                  <th scope="col">Runs</th>
                  <th scope="col">Success</th>
                  <th scope="col">Failure</th>
                  <th scope="col">Flakiness</th>
                  <th scope="col">Failures, 14 days</th>
                  <th scope="col">Last run</th>
                  <th scope="col">Quarantine</th>
                </tr>
              </thead>
              <tbody>
                {v.tests.map((t) => (
                  <tr key={t.testId} data-test={t.testName}>
                    <td>
                      <StateBadge state={t.healthStatus} />
                    </td>
                    <td style={{ overflowWrap: "break-word" }}>
                      <Link href={paths.test(repo.owner, repo.repository, t.testId)}>{t.testName}</Link>
                    </td>
                    <td>
                      {t.pipelineName} / {t.jobName}
                    </td>
                    <td>{String(t.runs)}</td>
                    <td>{percent(t.successRatio)}</td>
                    <td>{percent(t.failureRatio)}</td>
                    <td>{percent(t.flakinessRatio)}</td>
                    <td>
                      <Sparkline counts={t.dailyFailures.map(Number)} />
                    </td>
                    <td>
                      <time title={toDate(t.lastRunAt)?.toISOString()}>{relative(toDate(t.lastRunAt))}</time>{" "}
                      <StateBadge state={t.lastConclusion} />
                    </td>
                    <td>{t.quarantine ? <QuarantineNote q={t.quarantine} /> : "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {v && (page || v.next) && (
          <nav class="inline" aria-label="Pages of tests">
            {page && <Link href={listUrl(health, "")}>First page</Link>}{" "}
            {v.next && <Link href={listUrl(health, v.next)}>Next {PAGE_SIZE} tests</Link>}
          </nav>
        )}
      </section>
      <section aria-labelledby="quarantines">
        <h2 id="quarantines">Quarantines</h2>
        <p class="muted">A quarantined test's failures do not fail a check; past its expiry it lifts itself.</p>
        {v && <QuarantineList repo={repo} quarantines={v.quarantines} changed={live.refresh} />}
        <QuarantineForm repo={repo} known={v?.tests.map((t) => t.testName)} done={live.refresh} />
      </section>
      <section aria-labelledby="auto-quarantine">
        <h2 id="auto-quarantine">Auto-quarantine</h2>
        {v && <AutoQuarantineForm repo={repo} settings={v.settings} saved={live.refresh} />}
      </section>
    </>
  );
}
