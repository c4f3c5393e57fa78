/**
 * The `Link` response header of `/logs` (RFC 8288; docs/activity-log.md "Pages, cursors and
 * links"). Each link is a path-absolute reference to the REST route
 * (`/v1/repos/{owner}/{repository}/logs`, the google.api.http rule of ListLogs); the gateway makes
 * it an absolute URL with the service's public origin (gateway/public-url.ts), which only the edge
 * knows. Every link repeats the normalised filters, the explicit window the listing was pinned to
 * and `per_page`; `next` and `prev` add their cursor.
 */
import type { LogFilters, LogWindow, SetFilter } from "./log-filters.js";

/** The cursors of the neighbouring pages, when they exist. */
export interface PageCursors {
  next?: string;
  prev?: string;
}

function addSet<T>(q: URLSearchParams, f: SetFilter<T> | undefined, include: string, exclude: string): void {
  if (!f) return;
  for (const v of f.values) q.append(f.mode === "include" ? include : exclude, String(v));
}

/** The query string of a listing (filters, window, per_page), without a cursor. */
export function listingQuery(filters: LogFilters, window: LogWindow, perPage: number): URLSearchParams {
  const q = new URLSearchParams();
  addSet(q, filters.pullRequest, "pull_request", "not_pull_request");
  if (filters.baseRef !== undefined) q.append("base_ref", filters.baseRef);
  addSet(q, filters.batchPull, "batch_pull", "not_batch_pull");
  addSet(q, filters.eventType, "event_type", "not_event_type");
  addSet(q, filters.outcome, "outcome", "not_outcome");
  addSet(q, filters.trigger, "trigger", "not_trigger");
  q.append("received_from", new Date(window.fromMs).toISOString());
  q.append("received_to", new Date(window.toMs).toISOString());
  q.append("per_page", String(perPage));
  return q;
}

/**
 * The header value: `<…>; rel="next", <…>; rel="prev", <…>; rel="first"` (those present).
 * @param owner, repository the path parameters, as requested
 */
export function linkHeader(
  owner: string,
  repository: string,
  filters: LogFilters,
  window: LogWindow,
  perPage: number,
  cursors: PageCursors,
): string {
  const path = `/v1/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repository)}/logs`;
  const base = listingQuery(filters, window, perPage);
  const link = (rel: string, cursor?: string) => {
    const q = new URLSearchParams(base);
    if (cursor !== undefined) q.append("cursor", cursor);
    return `<${path}?${q.toString()}>; rel="${rel}"`;
  };
  const out: string[] = [];
  if (cursors.next !== undefined) out.push(link("next", cursors.next));
  if (cursors.prev !== undefined) out.push(link("prev", cursors.prev));
  out.push(link("first"));
  return out.join(", ");
}
