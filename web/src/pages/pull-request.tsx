/**
 * A pull request (docs/dashboard.md "Pages"): its place in the queue (position, queue
 * rule, estimated merge, its check's state and checks), the merge conditions as a checklist, and
 * its timeline from the activity log (the last 30 days, newest first), read again on each of its
 * events (WatchLogs of the pull request).
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { GetQueuedPullRequestResponse } from "../../../gen/yardmaster/v1/queue_pb.js";
import { activityLog, queue } from "../api/clients.js";
import { reloadOn, useLive } from "../api/live.js";
import type { RepositoryRef } from "../api/queue-view.js";
import { Conditions } from "../components/conditions.js";
import { EventList } from "../components/event-list.js";
import { ErrorNote, LiveBadge, StateBadge } from "../components/status.js";
import { relative, toDate, when } from "../format.js";

/** How far back the timeline reads, in days. */
const TIMELINE_DAYS = 30;

async function load(repo: RepositoryRef, prNumber: bigint, signal: AbortSignal) {
  const queued = queue.getQueuedPullRequest({ ...repo, prNumber }, { signal }).catch((e) => {
    if (ConnectError.from(e).code === Code.NotFound) return null;
    throw e;
  });
  const from = timestampFromDate(new Date(Date.now() - TIMELINE_DAYS * 86_400_000));
  const log = activityLog.listLogs({ ...repo, pullRequest: [prNumber], perPage: 100, receivedFrom: from }, { signal });
  return { queued: await queued, timeline: (await log).events };
}

function Standing({ pr }: { pr: GetQueuedPullRequestResponse }) {
  const eta = toDate(pr.estimatedTimeOfMerge);
  const check = pr.mergeabilityCheck;
  return (
    <>
      <dl>
        <dt>Position</dt>
        <dd data-testid="position">{Number(pr.position) + 1}</dd>
        <dt>Queue rule</dt>
        <dd>{pr.queueRuleName}</dd>
        <dt>Priority rule</dt>
        <dd>{pr.priorityRuleName || "—"}</dd>
        <dt>Queued</dt>
        <dd>{when(toDate(pr.queuedAt))}</dd>
        <dt>Estimated merge</dt>
        <dd>
          {when(eta)} {relative(eta)}
        </dd>
        <dt>Check</dt>
        <dd>{check ? <StateBadge state={check.ciState} /> : "waiting for a batch"}</dd>
      </dl>
      {check && check.checks.length > 0 && (
        <ul class="checks" aria-label="Checks">
          {check.checks.map((c) => (
            <li key={c.name}>
              <StateBadge state={c.state} /> {c.url ? <a href={c.url}>{c.name}</a> : c.name}
            </li>
          ))}
        </ul>
      )}
      {check?.conditionsEvaluation && (
        <section aria-labelledby="conditions">
          <h2 id="conditions">Merge conditions</h2>
          <ul class="conditions">
            <Conditions node={check.conditionsEvaluation} />
          </ul>
        </section>
      )}
    </>
  );
}

/** Pull request `number` of `repo`. */
export function PullRequestPage({ repo, number }: { repo: RepositoryRef; number: bigint }) {
  const { value, error, live } = useLive(
    reloadOn(
      (signal) => load(repo, number, signal),
      (signal) => activityLog.watchLogs({ ...repo, pullRequest: [number] }, { signal }),
      2000,
    ),
    [repo.owner, repo.repository, number],
  );
  return (
    <>
      <h1>
        Pull request #{String(number)} <LiveBadge live={live} />
      </h1>
      <ErrorNote error={error} />
      {value && (value.queued ? <Standing pr={value.queued} /> : <p>Not in a merge queue.</p>)}
      <section aria-labelledby="timeline">
        <h2 id="timeline">Timeline</h2>
        {value && <EventList repo={repo} events={value.timeline} caption="Timeline" />}
      </section>
    </>
  );
}
