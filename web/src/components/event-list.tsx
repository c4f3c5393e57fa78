/** Events of the activity log as a table, newest first (docs/events.md). */
import type { Event } from "../../../gen/yardmaster/v1/events_pb.js";
import { Outcome } from "../../../gen/yardmaster/v1/events_pb.js";
import { toDate, when } from "../format.js";
import { Link, paths } from "../router.js";
import type { RepositoryRef } from "../api/queue-view.js";
import { StateBadge } from "./status.js";

/** The outcome's name as the REST surface spells it ("success", ...); "" when unspecified. */
export function outcomeName(o: Outcome): string {
  return o === Outcome.OUTCOME_UNSPECIFIED ? "" : Outcome[o];
}

/** A short line of an event's metadata: its reason or message when it has one. */
function summary(e: Event): string {
  const m = e.metadata as Record<string, unknown> | undefined;
  const text = m?.reason ?? m?.message ?? m?.queue_name ?? "";
  return typeof text === "string" ? text : JSON.stringify(text);
}

/** A table of events. */
export function EventList({ repo, events, caption }: { repo: RepositoryRef; events: Event[]; caption: string }) {
  return (
    <table data-testid="events">
      <caption class="sr-only">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Received</th>
          <th scope="col">Type</th>
          <th scope="col">Outcome</th>
          <th scope="col">Pull request</th>
          <th scope="col">Base ref</th>
          <th scope="col">Trigger</th>
          <th scope="col">Detail</th>
        </tr>
      </thead>
      <tbody>
        {events.map((e) => (
          <tr key={String(e.id)} data-testid="event">
            <td>
              <time dateTime={toDate(e.receivedAt)?.toISOString()}>{when(toDate(e.receivedAt))}</time>
            </td>
            <td>
              <code>{e.type}</code>
            </td>
            <td>{outcomeName(e.outcome) && <StateBadge state={outcomeName(e.outcome)} />}</td>
            <td>
              {e.pullRequest !== undefined && (
                <Link href={paths.pull(repo.owner, repo.repository, e.pullRequest)}>#{String(e.pullRequest)}</Link>
              )}
            </td>
            <td>{e.baseRef ?? ""}</td>
            <td>{e.trigger}</td>
            <td>{summary(e)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
