/**
 * A pull request (docs/dashboard.md "Pages"): its title, author and state
 * (GetPullRequestSummary), its place in the queue while queued (position, queue rule, priority,
 * estimated merge, its batch's checks), the queue and merge conditions of its rule as checklists,
 * the queue controls (queue again under a rule, dequeue), and its timeline from the activity log
 * (the last 30 days, newest first, event types in words), read again on each of its events.
 * Live from WatchLogs of the pull request.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { GetQueuedPullRequestResponse, PullRequestSummary } from "../../../gen/yardmaster/v1/queue_pb.js";
import { activityLog, queue } from "../api/clients.js";
import { poll, streamOr, tailStart, useLive, type Source } from "../api/live.js";
import type { Event } from "../../../gen/yardmaster/v1/events_pb.js";
import type { RepositoryRef } from "../api/queue-view.js";
import { CheckList } from "../components/checks.js";
import { Conditions } from "../components/conditions.js";
import { DequeueButton } from "../components/dequeue.js";
import { EventList } from "../components/event-list.js";
import { RequeueForm } from "../components/requeue.js";
import { ErrorNote, isNotFound, LiveBadge, NotFound, StateBadge } from "../components/status.js";
import { etaText } from "../explain.js";
import { toDate, when } from "../format.js";
import { forgeLink } from "../links.js";
import { Link, paths } from "../router.js";
import { batchStatusWords } from "../words.js";

/** How far back the timeline reads, in days. */
const TIMELINE_DAYS = 30;

async function load(repo: RepositoryRef, prNumber: bigint, signal: AbortSignal) {
  const queued = queue.getQueuedPullRequest({ ...repo, prNumber }, { signal }).catch((e) => {
    if (ConnectError.from(e).code === Code.NotFound) return null;
    throw e;
  });
  const from = timestampFromDate(new Date(Date.now() - TIMELINE_DAYS * 86_400_000));
  const log = activityLog.listLogs({ ...repo, pullRequest: [prNumber], perPage: 100, receivedFrom: from }, { signal });
  const [summary, pause] = await Promise.all([
    queue.getPullRequestSummary({ ...repo, prNumber }, { signal }),
    queue.getMergeQueuePause(repo, { signal }),
  ]);
  return { summary, queued: await queued, timeline: (await log).events, paused: pause.paused };
}

function Standing({ pr, paused }: { pr: GetQueuedPullRequestResponse; paused: boolean }) {
  const eta = toDate(pr.estimatedTimeOfMerge);
  const check = pr.mergeabilityCheck;
  return (
    <section aria-labelledby="standing">
      <h2 id="standing">In the queue</h2>
      <dl>
        <dt>Position</dt>
        <dd data-testid="position">{Number(pr.position) + 1}</dd>
        <dt>Queue rule</dt>
        <dd>{pr.queueRuleName}</dd>
        <dt>Priority rule</dt>
        <dd>{pr.priorityRuleName || "none (medium priority)"}</dd>
        <dt>Queued</dt>
        <dd>{when(toDate(pr.queuedAt))}</dd>
        <dt>Estimated merge</dt>
        <dd data-testid="pull-eta">{etaText(eta, paused)}</dd>
        <dt>Batch</dt>
        <dd>
          {check ? <StateBadge state={check.state} label={batchStatusWords(check.state)} /> : "waiting for a batch"}
        </dd>
      </dl>
      {check && <CheckList checks={check.checks} label="Checks of its batch" />}
    </section>
  );
}

function Summary({ s }: { s: PullRequestSummary }) {
  const link = forgeLink(s.url);
  return (
    <p data-testid="pull-summary">
      <StateBadge state={s.state === "merged" ? "merged" : s.state === "open" ? "idle" : "cancelled"} label={s.state} />{" "}
      by <strong data-testid="pull-author">{s.author?.login}</strong> into <code>{s.baseRef}</code>
      {s.draft && " (draft)"}
      {s.labels.length > 0 && <span class="muted"> · labels: {s.labels.join(", ")}</span>}
      {link && !link.internal && (
        <>
          {" "}
          · <a href={link.href}>on the forge</a>
        </>
      )}
    </p>
  );
}

function ConditionsOf({ s }: { s: PullRequestSummary }) {
  if (!s.queueRuleName)
    return <p data-testid="not-queueable">No queue rule would take it: {s.notQueueableReason || "no rule"}.</p>;
  return (
    <>
      <p class="muted">
        Conditions of the queue rule <strong>{s.queueRuleName}</strong>
        {s.queued ? "" : " (the one it would enter now)"}, evaluated now.
      </p>
      {s.queueConditions && (
        <section aria-labelledby="queue-conditions">
          <h3 id="queue-conditions">To enter the queue</h3>
          {s.queueConditions.subconditions.length === 0 ? (
            <p>None: any open pull request may enter.</p>
          ) : (
            <ul class="conditions">
              <Conditions node={s.queueConditions} />
            </ul>
          )}
        </section>
      )}
      {s.mergeConditions && (
        <section aria-labelledby="merge-conditions">
          <h3 id="merge-conditions">To merge</h3>
          <ul class="conditions">
            <Conditions node={s.mergeConditions} />
          </ul>
        </section>
      )}
    </>
  );
}

type PullView = Awaited<ReturnType<typeof load>>;

/** Newest first (the timeline's order), no duplicate. */
const newestFirst = (events: Event[]) =>
  [...new Map(events.map((e) => [e.id, e])).values()].sort((a, b) => (b.id > a.id ? 1 : b.id < a.id ? -1 : 0));

/**
 * The page's snapshots: loaded, then loaded again on each of the pull request's events, streamed
 * from the newest listed one on (the listing ends where the log has settled: live.ts
 * `tailStart`), each added to the timeline; polled without streams.
 */
function pullSource(repo: RepositoryRef, number: bigint): Source<PullView> {
  return streamOr(
    async function* (signal) {
      const streamed: Event[] = [];
      const withStreamed = (v: PullView) => ({ ...v, timeline: newestFirst([...streamed, ...v.timeline]) });
      const first = await load(repo, number, signal);
      yield first;
      const from = timestampFromDate(
        tailStart(
          first.timeline.map((e) => e.receivedAt),
          new Date(Date.now() - TIMELINE_DAYS * 86_400_000),
        ),
      );
      const events = activityLog.watchLogs({ ...repo, pullRequest: [number], receivedFrom: from }, { signal });
      for await (const m of events) {
        if (m.event) streamed.push(m.event);
        yield withStreamed(await load(repo, number, signal));
      }
    },
    poll((signal) => load(repo, number, signal), 2000),
  );
}

/** Pull request `number` of `repo`. */
export function PullRequestPage({ repo, number }: { repo: RepositoryRef; number: bigint }) {
  const { value, error, live, stopped, refresh } = useLive(pullSource(repo, number), [
    repo.owner,
    repo.repository,
    number,
  ]);
  if (isNotFound(error)) return <NotFound what={`${repo.owner}/${repo.repository} has no pull request #${number}.`} />;
  const s = value?.summary;
  return (
    <>
      <h1>
        <span>
          #{String(number)} {s?.title}
        </span>{" "}
        <LiveBadge live={live} stopped={stopped} error={error} />
      </h1>
      <ErrorNote error={error} />
      {value && s && (
        <>
          <Summary s={s} />
          {value.queued ? (
            <Standing pr={value.queued} paused={value.paused} />
          ) : (
            <p>
              Not in a merge queue.{" "}
              <Link href={paths.queue(repo.owner, repo.repository, s.baseRef)}>Queue of {s.baseRef}</Link>
            </p>
          )}
          {s.state === "open" && (
            <div class="pull-actions">
              <RequeueForm
                repo={repo}
                number={number}
                queued={s.queued}
                currentRule={value.queued?.queueRuleName ?? ""}
                rules={s.queueRules}
                changed={refresh}
              />
              {s.queued && <DequeueButton repo={repo} number={number} changed={refresh} />}
            </div>
          )}
          <section aria-labelledby="conditions">
            <h2 id="conditions">Conditions</h2>
            <ConditionsOf s={s} />
          </section>
        </>
      )}
      <section aria-labelledby="timeline">
        <h2 id="timeline">Timeline</h2>
        {value && <EventList repo={repo} events={value.timeline} caption="Timeline" />}
      </section>
    </>
  );
}
