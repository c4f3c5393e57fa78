/**
 * A batch (docs/dashboard.md "Pages"), reached from a queue page or from a pull request that left
 * (its leave names its batch): while the batch is in the queue, its card as the queue page shows
 * it, live; afterwards, its story from the activity log — the events of the pull request it was
 * reached from that name this batch (its checks' starts and ends with the checks that failed and
 * links to their CI runs, bisection, merge or removal). Read again on each of that pull request's
 * events.
 */
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { Event } from "../../../gen/yardmaster/v1/events_pb.js";
import type { Batch, MergeabilityCheckItem } from "../../../gen/yardmaster/v1/queue_pb.js";
import { activityLog, queue } from "../api/clients.js";
import { reloadOn, useLive } from "../api/live.js";
import type { RepositoryRef } from "../api/queue-view.js";
import { BatchCard } from "../components/batch.js";
import { CheckList } from "../components/checks.js";
import { EventList } from "../components/event-list.js";
import { ErrorNote, LiveBadge, NotFound } from "../components/status.js";
import { Link, paths } from "../router.js";

/** How far back the story is read, in days. */
const STORY_DAYS = 30;

function findBatch(batches: Batch[], id: string): Batch | undefined {
  for (const b of batches) {
    if (b.id === id) return b;
    const sub = findBatch(b.subBatches, id);
    if (sub) return sub;
  }
  return undefined;
}

type Meta = Record<string, unknown>;

async function load(repo: RepositoryRef, id: string, pull: bigint, signal: AbortSignal) {
  const [status, log] = await Promise.all([
    queue.getMergeQueueStatus(repo, { signal }),
    pull > 0n
      ? activityLog.listLogs(
          {
            ...repo,
            pullRequest: [pull],
            perPage: 100,
            receivedFrom: timestampFromDate(new Date(Date.now() - STORY_DAYS * 86_400_000)),
          },
          { signal },
        )
      : Promise.resolve({ events: [] as Event[] }),
  ]);
  const events = log.events.filter((e) => (e.metadata as Meta | undefined)?.batch_id === id);
  return { live: findBatch(status.batches, id), events, paused: status.pause !== undefined };
}

/** The checks that failed in the batch's ended checks, newest first, each once. */
function failedChecks(events: Event[]): MergeabilityCheckItem[] {
  const seen = new Map<string, MergeabilityCheckItem>();
  for (const e of events) {
    if (e.type !== "action.queue.checks_end") continue;
    for (const c of ((e.metadata as Meta).unsuccessful_checks ?? []) as Meta[])
      if (!seen.has(String(c.name)))
        seen.set(String(c.name), {
          name: String(c.name),
          description: String(c.description ?? ""),
          url: typeof c.url === "string" ? c.url : undefined,
          state: String(c.state),
        } as MergeabilityCheckItem);
  }
  return [...seen.values()];
}

/** Batch `id`, reached through pull request `pull`. */
export function BatchPage({ repo, id, pull }: { repo: RepositoryRef; id: string; pull: bigint }) {
  const { value, error, live, stopped, refresh } = useLive(
    reloadOn(
      (signal) => load(repo, id, pull, signal),
      (signal) => activityLog.watchLogs({ ...repo, pullRequest: [pull] }, { signal }),
      2000,
    ),
    [repo.owner, repo.repository, id, pull],
  );
  if (value && !value.live && value.events.length === 0)
    return (
      <NotFound
        what={`No batch ${id} is in the queue, nor among the events of #${pull} of the last ${STORY_DAYS} days.`}
      />
    );
  const name = value?.live?.name ?? String((value?.events[0]?.metadata as Meta | undefined)?.batch_name ?? "Batch");
  const members = (
    value?.events.find((e) => Array.isArray((e.metadata as Meta).pull_request_numbers))?.metadata as Meta | undefined
  )?.pull_request_numbers as number[] | undefined;
  return (
    <>
      <h1>
        {name} <LiveBadge live={live} stopped={stopped} error={error} />
      </h1>
      <ErrorNote error={error} />
      {value?.live ? (
        <BatchCard repo={repo} batch={value.live} standings={new Map()} paused={value.paused} changed={refresh} />
      ) : (
        value && (
          <section aria-labelledby="story" data-testid="batch-story">
            <h2 id="story">No longer in the queue</h2>
            {members && (
              <p>
                Pull requests:{" "}
                {members.map((n, i) => (
                  <span key={n}>
                    {i > 0 && ", "}
                    <Link href={paths.pull(repo.owner, repo.repository, n)}>#{n}</Link>
                  </span>
                ))}
              </p>
            )}
            <CheckList checks={failedChecks(value.events)} label="Checks that failed" />
          </section>
        )
      )}
      {value && value.events.length > 0 && (
        <section aria-labelledby="events">
          <h2 id="events">Its events (for #{String(pull)})</h2>
          <EventList repo={repo} events={value.events} caption={`Events of ${name}`} />
        </section>
      )}
    </>
  );
}
