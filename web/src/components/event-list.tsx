/**
 * Events of the activity log as a table, newest first (docs/events.md): each type in words (its
 * name in the cell's title), and a line of what its metadata says (the reason of a leave, the
 * conclusion and failed checks of a check's end, the culprits of a bisection...).
 */
import type { Event } from "../../../gen/yardmaster/v1/events_pb.js";
import { Outcome } from "../../../gen/yardmaster/v1/events_pb.js";
import { toDate, when } from "../format.js";
import { Link, paths } from "../router.js";
import type { RepositoryRef } from "../api/queue-view.js";
import { dequeueWords, eventTypeWords } from "../words.js";
import { StateBadge } from "./status.js";

/** The outcome's name as the REST surface spells it ("success", ...); "" when unspecified. */
export function outcomeName(o: Outcome): string {
  return o === Outcome.OUTCOME_UNSPECIFIED ? "" : Outcome[o];
}

type Meta = Record<string, unknown>;
const str = (v: unknown) => (typeof v === "string" ? v : "");
const numbers = (v: unknown) => (Array.isArray(v) ? v.map((n) => `#${n}`).join(", ") : "");
const failedChecks = (m: Meta) =>
  Array.isArray(m.unsuccessful_checks)
    ? (m.unsuccessful_checks as { name?: string }[]).map((c) => c.name ?? "").join(", ")
    : "";

/** A short line of what an event's metadata says. */
export function eventSummary(e: Event): string {
  const m = (e.metadata ?? {}) as Meta;
  const batch = str(m.batch_name);
  const check = (m.speculative_check_pull_request ?? {}) as Meta;
  switch (e.type) {
    case "action.queue.leave":
      return `${dequeueWords(str(m.dequeue_code))}: ${str(m.reason)}`;
    case "action.queue.enter":
      return `queue rule ${str(m.queue_name)}, into ${str(m.branch)}`;
    case "action.queue.merged":
      return `into ${str(m.branch)}`;
    case "action.queue.checks_start":
      return [batch, str(m.start_reason)].filter(Boolean).join(": ");
    case "action.queue.checks_end": {
      if (m.aborted) return `${batch} stopped: ${str(m.abort_reason) || str(m.abort_code)}`;
      const failed = failedChecks(m);
      return `${batch}: ${str(check.checks_conclusion)}${failed ? ` (${failed} failed)` : ""}`;
    }
    case "action.queue.batch_bisection_start":
      return `${batch} split into ${m.number_of_sub_batches} sub-batches to find the culprit`;
    case "action.queue.batch_bisection_end":
      return m.culprit_found ? `${batch}: culprit ${numbers(m.culprit_pr_numbers)}` : `${batch}: no culprit found`;
    default: {
      const text = m.reason ?? m.message ?? m.queue_name ?? m.error ?? "";
      return typeof text === "string" ? text : JSON.stringify(text);
    }
  }
}

/** A table of events. */
export function EventList({ repo, events, caption }: { repo: RepositoryRef; events: Event[]; caption: string }) {
  return (
    <div class="scroll">
      <table data-testid="events">
        <caption class="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Received</th>
            <th scope="col">Event</th>
            <th scope="col">Outcome</th>
            <th scope="col">Pull request</th>
            <th scope="col">Base ref</th>
            <th scope="col">Trigger</th>
            <th scope="col">Detail</th>
          </tr>
        </thead>
        <tbody>
          {events.map((e) => (
            <tr key={String(e.id)} data-testid="event" data-type={e.type}>
              <td>
                <time dateTime={toDate(e.receivedAt)?.toISOString()}>{when(toDate(e.receivedAt))}</time>
              </td>
              <td title={e.type}>{eventTypeWords(e.type)}</td>
              <td>{outcomeName(e.outcome) && <StateBadge state={outcomeName(e.outcome)} />}</td>
              <td>
                {e.pullRequest !== undefined && (
                  <Link href={paths.pull(repo.owner, repo.repository, e.pullRequest)}>#{String(e.pullRequest)}</Link>
                )}
              </td>
              <td>{e.baseRef ?? ""}</td>
              <td>{e.trigger}</td>
              <td>{eventSummary(e)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
