/**
 * The recently merged and removed pull requests of a branch (docs/dashboard.md "Pages"): its last
 * `action.queue.leave` events (the last 7 days, newest first), each with its result in words, the
 * sentence of its reason, its time in queue and a link to its batch; each new leave added as
 * WatchLogs streams it, polled without streams.
 */
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { Event } from "../../../gen/yardmaster/v1/events_pb.js";
import { activityLog } from "../api/clients.js";
import { poll, streamOr, tailStart, useLive, type Source } from "../api/live.js";
import type { RepositoryRef } from "../api/queue-view.js";
import { duration, toDate, when } from "../format.js";
import { Link, paths } from "../router.js";
import { dequeueWords, isMerge } from "../words.js";
import { ErrorNote, StateBadge } from "./status.js";

/** Leaves shown. */
export const HISTORY_SIZE = 15;
/** How far back they are read, in milliseconds (7 days). */
const HISTORY_MS = 7 * 86_400_000;
const LEAVE = ["action.queue.leave"];

/** Removals that are the queue's verdict on the pull request's CI (shown as failures; the others neutral). */
const VERDICTS = new Set([
  "CHECKS_FAILED",
  "CHECKS_TIMEOUT",
  "DROPPED_BY_BISECTION_ELIMINATION",
  "BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS",
]);

type Meta = { reason?: string; dequeue_code?: string; queued_at?: string; batch_id?: string | null };

function Row({ repo, e }: { repo: RepositoryRef; e: Event }) {
  const m = (e.metadata ?? {}) as Meta;
  const code = m.dequeue_code ?? "";
  const left = toDate(e.receivedAt);
  const queued = m.queued_at ? new Date(m.queued_at) : undefined;
  const n = e.pullRequest;
  return (
    <tr data-testid="history-row" data-code={code}>
      <td>{n !== undefined && <Link href={paths.pull(repo.owner, repo.repository, n)}>#{String(n)}</Link>}</td>
      <td>
        <StateBadge
          state={isMerge(code) ? "merged" : VERDICTS.has(code) ? "failed" : "idle"}
          label={dequeueWords(code)}
        />
      </td>
      <td>{isMerge(code) ? "" : m.reason}</td>
      <td>{left && queued ? duration((left.getTime() - queued.getTime()) / 1000) : "—"}</td>
      <td>
        <time dateTime={left?.toISOString()}>{when(left)}</time>
      </td>
      <td>
        {m.batch_id && n !== undefined ? (
          <Link href={paths.batch(repo.owner, repo.repository, m.batch_id, n)}>batch</Link>
        ) : (
          "—"
        )}
      </td>
    </tr>
  );
}

/** The newest leaves first, no duplicate, {@link HISTORY_SIZE} long. */
const newest = (events: Event[]) =>
  [...new Map(events.map((e) => [e.id, e])).values()]
    .sort((a, b) => (b.id > a.id ? 1 : b.id < a.id ? -1 : 0))
    .slice(0, HISTORY_SIZE);

/**
 * The last leaves, then the same with each leave streamed from the newest listed one on (the
 * listing ends where the log has settled: live.ts `tailStart`), added as it comes.
 */
function historySource(repo: RepositoryRef, branch: string): Source<Event[]> {
  const load = async (signal: AbortSignal) =>
    (
      await activityLog.listLogs(
        {
          ...repo,
          eventType: LEAVE,
          baseRef: branch,
          perPage: HISTORY_SIZE,
          receivedFrom: timestampFromDate(new Date(Date.now() - HISTORY_MS)),
        },
        { signal },
      )
    ).events;
  return streamOr(
    async function* (signal) {
      let shown = await load(signal);
      yield shown;
      const from = timestampFromDate(
        tailStart(
          shown.map((e) => e.receivedAt),
          new Date(Date.now() - HISTORY_MS),
        ),
      );
      for await (const m of activityLog.watchLogs(
        { ...repo, eventType: LEAVE, baseRef: branch, receivedFrom: from },
        { signal },
      ))
        if (m.event) yield (shown = newest([m.event, ...shown]));
    },
    poll(load, 3000),
  );
}

/** The last pull requests that left the queue of `branch`. */
export function History({ repo, branch }: { repo: RepositoryRef; branch: string }) {
  const { value, error } = useLive(historySource(repo, branch), [repo.owner, repo.repository, branch]);
  if (error) return <ErrorNote error={error} />;
  if (!value) return null;
  if (value.length === 0) return <p>No pull request left this queue in the last 7 days.</p>;
  return (
    <div class="scroll">
      <table data-testid="history">
        <caption class="sr-only">Recently merged and removed pull requests</caption>
        <thead>
          <tr>
            <th scope="col">Pull request</th>
            <th scope="col">Result</th>
            <th scope="col">Why</th>
            <th scope="col">In queue</th>
            <th scope="col">Left</th>
            <th scope="col">Batch</th>
          </tr>
        </thead>
        <tbody>
          {value.map((e) => (
            <Row key={String(e.id)} repo={repo} e={e} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
