/**
 * The statistics of a repository's queue (docs/dashboard.md "Statistics"): for one base branch or
 * all, over a chosen window, the figures ClickHouse computes from the activity log
 * (GetQueueStatistics, docs/activity-log.md "Queue statistics") — the window's totals (merges per
 * hour among them), then per bucket time in queue p50/p90, merges, queue depth and bisections, and
 * since the window's start (sums of the buckets' counts) CI runs and CI time per merge and the
 * failure and flake rates — and the removals by dequeue code. Live: read again at most
 * every {@link STATS_MIN_MS} while queue events arrive (WatchLogs), polled without streams. The
 * branch and window are in the URL (`branch`, `hours`).
 */
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { GetQueueStatisticsResponse, QueueStatistics } from "../../../gen/yardmaster/v1/activity_log_pb.js";
import { activityLog, queue } from "../api/clients.js";
import { fitWindow, type FittedWindow } from "../api/fit-window.js";
import { reloadThrottled, useLive } from "../api/live.js";
import type { RepositoryRef } from "../api/queue-view.js";
import { Chart } from "../components/chart.js";
import { ErrorNote, LiveBadge } from "../components/status.js";
import { percent, seconds, when } from "../format.js";
import { navigate } from "../router.js";
import { dequeueWords } from "../words.js";

/** The shortest time between two reads while events arrive, in milliseconds. */
export const STATS_MIN_MS = 2500;
/** The windows offered, in hours; the default ("") is fitted to the queue's events. */
const WINDOWS: [string, string][] = [
  ["", "fitted to the queue's events"],
  ["1", "last hour"],
  ["24", "last day"],
  ["168", "last 7 days"],
  ["720", "last 30 days"],
];
const QUEUE_EVENTS = [
  "action.queue.enter",
  "action.queue.leave",
  "action.queue.checks_start",
  "action.queue.checks_end",
  "action.queue.batch_bisection_start",
];

async function load(repo: RepositoryRef, branch: string | undefined, hours: number | null, signal: AbortSignal) {
  const window: FittedWindow =
    hours === null
      ? await fitWindow({ ...repo, eventType: QUEUE_EVENTS, baseRef: branch }, signal)
      : { from: new Date(Date.now() - hours * 3_600_000), to: undefined, fitted: false };
  const from = timestampFromDate(window.from);
  const to = window.to ? timestampFromDate(window.to) : undefined;
  const [stats, refs] = await Promise.all([
    activityLog.getQueueStatistics({ ...repo, baseRef: branch, receivedFrom: from, receivedTo: to }, { signal }),
    queue.listQueueBaseRefs({ ...repo, startAt: from, endAt: to }, { signal }),
  ]);
  return { stats, window, branches: refs.baseRefs };
}

const num = (v: bigint | number) => Number(v);
const fixed = (v: number | undefined, digits = 1) => (v === undefined ? "—" : v.toFixed(digits));

/** The window's totals as labelled figures. */
function Totals({ s }: { s: QueueStatistics }) {
  const tiles: [string, string, string][] = [
    ["merges", "Merges", String(num(s.merges))],
    ["merges-per-hour", "Merges per hour", s.mergesPerHour.toFixed(2)],
    ["time-in-queue-p50", "Time in queue, p50", seconds(s.timeInQueueP50Seconds)],
    ["time-in-queue-p90", "Time in queue, p90", seconds(s.timeInQueueP90Seconds)],
    ["ci-runs", "CI runs", String(num(s.ciRuns))],
    ["ci-runs-per-merge", "CI runs per merge", fixed(s.ciRunsPerMerge, 2)],
    ["ci-time-per-merge", "CI time per merge", seconds(s.ciSecondsPerMerge)],
    ["failure-rate", "Failure rate", percent(s.failureRate)],
    ["flake-rate", "Flake rate", percent(s.flakeRate)],
    ["bisections", "Bisections", String(num(s.bisections))],
    ["removals", "Removed without merging", String(num(s.removals))],
    ["queue-depth", "Queued now (most in window)", `${num(s.queueDepth)} (${num(s.queueDepthMax)})`],
  ];
  return (
    <dl class="tiles" data-testid="totals">
      {tiles.map(([id, label, value]) => (
        <div key={id}>
          <dt>{label}</dt>
          <dd data-testid={`total-${id}`}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A ratio since the window's start, at the end of each bucket: the sums of `top` and `bottom` over
 * the buckets so far (null while `bottom` is 0). A ratio per bucket means little when buckets are
 * seconds long (a run starts in one, its merge lands in another); this one converges to the
 * window's figure.
 */
function soFar(
  r: GetQueueStatisticsResponse,
  top: (s: QueueStatistics) => number,
  bottom: (s: QueueStatistics) => number,
) {
  let t = 0;
  let b = 0;
  return r.buckets.map((x) => {
    if (x.statistics) {
      t += top(x.statistics);
      b += bottom(x.statistics);
    }
    return b === 0 ? null : t / b;
  });
}

/** One chart per figure, over the buckets. */
function Charts({ r }: { r: GetQueueStatisticsResponse }) {
  const xs = r.buckets.map((b) => Number(b.start?.seconds ?? 0));
  const of = (f: (s: QueueStatistics) => number | undefined | null) =>
    r.buckets.map((b) => {
      const v = b.statistics ? f(b.statistics) : undefined;
      return v === undefined || v === null ? null : v;
    });
  const merges = (s: QueueStatistics) => num(s.merges);
  const concluded = (s: QueueStatistics) => num(s.concludedRuns);
  const minutes = (v: number) =>
    v < 90 ? `${v.toFixed(0)} s` : v < 5400 ? `${(v / 60).toFixed(v < 600 ? 1 : 0)} min` : `${(v / 3600).toFixed(1)} h`;
  const interval = seconds(Number(r.intervalSizeSeconds));
  return (
    <div class="charts">
      <Chart
        title="Time in queue"
        xs={xs}
        format={minutes}
        caption={`p50 and p90 of the merged pull requests' time in queue, per ${interval}.`}
        series={[
          { label: "p50", values: of((s) => s.timeInQueueP50Seconds), color: "#2563eb" },
          { label: "p90", values: of((s) => s.timeInQueueP90Seconds), color: "#9a6700" },
        ]}
      />
      <Chart
        title="Merges"
        xs={xs}
        integer
        format={(v) => v.toFixed(0)}
        caption={`Pull requests merged per ${interval} (the window's rate per hour is above).`}
        series={[{ label: "merges", values: of((s) => num(s.merges)), color: "#1a7f37", bars: true }]}
      />
      <Chart
        title="Queue depth"
        xs={xs}
        integer
        format={(v) => v.toFixed(0)}
        caption={`Queued pull requests at the end of each ${interval}, and the most at once in it.`}
        series={[
          { label: "at the end", values: of((s) => num(s.queueDepth)), color: "#2563eb" },
          { label: "most", values: of((s) => num(s.queueDepthMax)), color: "#59636e" },
        ]}
      />
      <Chart
        title="CI runs per merge"
        xs={xs}
        format={(v) => v.toFixed(2)}
        caption="CI runs started per pull request merged, since the window's start."
        series={[{ label: "runs per merge", values: soFar(r, (s) => num(s.ciRuns), merges), color: "#8250df" }]}
      />
      <Chart
        title="CI time per merge"
        xs={xs}
        format={minutes}
        caption="CI time of the runs that ended per pull request merged, since the window's start."
        series={[{ label: "CI time per merge", values: soFar(r, (s) => s.ciSeconds, merges), color: "#8250df" }]}
      />
      <Chart
        title="Failure and flake rates"
        xs={xs}
        rate
        format={(v) => `${(v * 100).toFixed(0)}%`}
        caption="Of the runs that concluded since the window's start, those that failed, and those that failed without a culprit."
        series={[
          { label: "failure rate", values: soFar(r, (s) => num(s.failedRuns), concluded), color: "#cf222e" },
          { label: "flake rate", values: soFar(r, (s) => num(s.flakyRuns), concluded), color: "#9a6700" },
        ]}
      />
      <Chart
        title="Bisections"
        xs={xs}
        integer
        format={(v) => v.toFixed(0)}
        caption={`Failed batches split to find their culprit, per ${interval}.`}
        series={[{ label: "bisections", values: of((s) => num(s.bisections)), color: "#9a6700", bars: true }]}
      />
    </div>
  );
}

/** The statistics page of `repo`, for the branch and window of the URL's query. */
export function StatisticsPage({ repo, url }: { repo: RepositoryRef; url: URL }) {
  const branch = url.searchParams.get("branch") || undefined;
  const hoursParam = url.searchParams.get("hours");
  const hours = hoursParam === null ? null : Number(hoursParam) || 168;
  const { value, error, live, stopped } = useLive(
    reloadThrottled(
      (signal) => load(repo, branch, hours, signal),
      (signal) => activityLog.watchLogs({ ...repo, eventType: QUEUE_EVENTS, baseRef: branch }, { signal }),
      STATS_MIN_MS,
      10_000,
    ),
    [repo.owner, repo.repository, branch, hours],
  );
  const set = (key: string, v: string) => {
    const q = new URLSearchParams(url.search);
    if (v) q.set(key, v);
    else q.delete(key);
    navigate(`${url.pathname}?${q.toString()}`);
  };
  const branches = [...new Set([...(value?.branches ?? []), ...(branch ? [branch] : [])])].sort();
  return (
    <>
      <h1>
        Statistics <LiveBadge live={live} stopped={stopped} error={error} />
      </h1>
      <div class="toolbar">
        <label>
          Branch{" "}
          <select value={branch ?? ""} onChange={(e) => set("branch", (e.currentTarget as HTMLSelectElement).value)}>
            <option value="">all branches</option>
            {branches.map((b) => (
              <option key={b} value={b}>
                {b}
              </option>
            ))}
          </select>
        </label>
        <label>
          Window{" "}
          <select
            value={hours === null ? "" : String(hours)}
            onChange={(e) => set("hours", (e.currentTarget as HTMLSelectElement).value)}
          >
            {WINDOWS.map(([h, label]) => (
              <option key={h} value={h}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorNote error={error} />
      {value && (
        <>
          <p class="muted" data-testid="window">
            From {when(value.window.from)} to {value.window.to ? when(value.window.to) : "now"}
            {value.window.fitted ? " (fitted to the queue's events)" : ""}, in buckets of{" "}
            {seconds(Number(value.stats.intervalSizeSeconds))}.
          </p>
          <section aria-labelledby="totals">
            <h2 id="totals">The whole window</h2>
            {value.stats.summary && <Totals s={value.stats.summary} />}
          </section>
          <section aria-labelledby="over-time">
            <h2 id="over-time">Over time</h2>
            <Charts r={value.stats} />
          </section>
          <section aria-labelledby="removals">
            <h2 id="removals">Removed without merging, by reason</h2>
            {value.stats.removalsByCode.length === 0 ? (
              <p>None in this window.</p>
            ) : (
              <ul data-testid="removals">
                {value.stats.removalsByCode.map((r) => (
                  <li key={r.value}>
                    {dequeueWords(r.value)} <code class="muted">{r.value}</code>: {String(r.count)}
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </>
  );
}
