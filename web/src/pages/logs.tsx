/**
 * The activity log (docs/dashboard.md "Pages"): the window's histogram, the facets as
 * filters with their counts, pages of events (newest first, keyset pages through the Link
 * header's cursors) and a live tail (the newest page and the counts follow the log).
 */
import { useState } from "preact/hooks";
import { filtersOf, logsView, type LogsView } from "../api/logs-view.js";
import { useLive } from "../api/live.js";
import type { RepositoryRef } from "../api/queue-view.js";
import { EventList } from "../components/event-list.js";
import { Facets, type Facet } from "../components/facets.js";
import { Histogram } from "../components/histogram.js";
import { ErrorNote, LiveBadge } from "../components/status.js";
import { Link, navigate } from "../router.js";
import { duration, when } from "../format.js";
import { eventTypeWords } from "../words.js";

function facetsOf(view: LogsView): Facet[] {
  const a = view.aggregate;
  return [
    { param: "event_type", legend: "Event type", values: a.byEventType, label: eventTypeWords },
    { param: "outcome", legend: "Outcome", values: a.byOutcome },
    { param: "pull_request", legend: "Pull request", values: a.byPullRequest },
    { param: "base_ref", legend: "Base ref", values: view.baseRefs, single: true },
    { param: "trigger", legend: "Trigger", values: a.byTrigger },
  ];
}

function pageHref(url: URL, cursor: string | undefined): string {
  const q = new URLSearchParams(url.search);
  q.delete("cursor");
  if (cursor) q.set("cursor", cursor);
  return `${url.pathname}?${q.toString()}`;
}

/** The activity log of `repo`, filtered by the URL's query. */
export function LogsPage({ repo, url }: { repo: RepositoryRef; url: URL }) {
  const [tail, setTail] = useState(true);
  const filters = filtersOf(url.searchParams);
  const { value, error, live } = useLive(logsView(repo, filters, tail), [
    repo.owner,
    repo.repository,
    url.search,
    tail,
  ]);
  return (
    <>
      <h1>Activity log {tail && !filters.cursor && <LiveBadge live={live} error={error} />}</h1>
      <div class="toolbar">
        <label>
          Window{" "}
          <select
            value={filters.hours === null ? "" : String(filters.hours)}
            onChange={(e) => {
              const q = new URLSearchParams(url.search);
              const v = (e.currentTarget as HTMLSelectElement).value;
              if (v) q.set("hours", v);
              else q.delete("hours");
              q.delete("cursor");
              navigate(`${url.pathname}?${q.toString()}`);
            }}
          >
            <option value="">fitted to the events</option>
            <option value="1">last hour</option>
            <option value="24">last day</option>
            <option value="168">last 7 days</option>
          </select>
        </label>
        <label>
          <input type="checkbox" checked={tail} onChange={() => setTail(!tail)} /> Live tail
        </label>
        {url.search && <Link href={url.pathname}>Clear filters</Link>}
      </div>
      <ErrorNote error={error} />
      {value && (
        <>
          <p data-testid="total">
            <strong>{String(value.aggregate.total)}</strong> events{" "}
            <span class="muted" data-testid="window">
              from {when(value.window.from)} to {value.window.to ? when(value.window.to) : "now"}
              {value.window.fitted ? " (fitted to the events)" : ""}, in buckets of{" "}
              {duration(Number(value.aggregate.intervalSizeSeconds))}
            </span>
          </p>
          <Histogram buckets={value.aggregate.histogram} total={value.aggregate.total} />
          <div class="split">
            <aside aria-label="Facets">
              <Facets url={url} facets={facetsOf(value)} />
            </aside>
            <section aria-label="Events">
              <EventList repo={repo} events={value.events} caption="Events, newest first" />
              <nav aria-label="Pages" class="pager">
                {filters.cursor && <Link href={pageHref(url, undefined)}>Newest</Link>}
                {value.prev && <Link href={pageHref(url, value.prev)}>Newer</Link>}
                {value.next && <Link href={pageHref(url, value.next)}>Older</Link>}
              </nav>
            </section>
          </div>
        </>
      )}
    </>
  );
}
