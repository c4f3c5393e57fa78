/**
 * The filters of a log request as ClickHouse conditions with bound parameters (never spliced
 * values), shared by the `/logs` page and `/logs/aggregate` so both count exactly the same rows
 * (docs/activity-log.md "Aggregates" rule 1). Columns follow migrations/0001_events.sql: `pull_request`
 * and `batch_pull` hold -1 for "none", `base_ref` '' for null, so negative filters keep those rows
 * (`-1 NOT IN (…)` is true) and positive ones drop them (filter values are never negative).
 */
import type { LogFilters, LogWindow, SetFilter } from "./log-filters.js";

/** Conditions of a request, split the way the aggregate needs them. */
export interface LogPredicates {
  /** Apply to every count and every page: repository, window, base_ref, event type, outcome. */
  common: string[];
  /** The part of `common` on the columns the rollups keep too: base_ref, event type, outcome. */
  dims: string[];
  /** The facet filters, which their own facet leaves out (docs/activity-log.md "Aggregates"). */
  trigger?: string;
  pullRequest?: string;
  batchPull?: string;
  /** Values of the `{name:Type}` placeholders. */
  params: Record<string, unknown>;
}

/** Received times the table can hold (DateTime64(3) spans 1900-2299); ingest accepts RECEIVED_AT_RANGE only. */
const QUERY_MIN_MS = Date.UTC(1900, 0, 1);
const QUERY_MAX_MS = Date.UTC(2299, 11, 31);
const clamp = (ms: number) => Math.min(QUERY_MAX_MS, Math.max(QUERY_MIN_MS, ms));

function setCondition(column: string, f: SetFilter<unknown>, param: string, type: string): string {
  return `${column} ${f.mode === "include" ? "IN" : "NOT IN"} {${param}:Array(${type})}`;
}

/**
 * The conditions and parameters of `filters` over `window`. Window bounds outside what DateTime64
 * can hold are clamped to it (no stored event lies outside; see RECEIVED_AT_RANGE in event-row.ts).
 */
export function logPredicates(filters: LogFilters, window: LogWindow): LogPredicates {
  const params: Record<string, unknown> = {
    repo: filters.repository,
    from_ms: clamp(window.fromMs),
    to_ms: clamp(window.toMs),
  };
  const common = [
    "repository = {repo:String}",
    "received_at >= fromUnixTimestamp64Milli({from_ms:Int64}, 'UTC')",
    "received_at < fromUnixTimestamp64Milli({to_ms:Int64}, 'UTC')",
  ];
  const dims: string[] = [];
  const p: LogPredicates = { common, dims, params };
  if (filters.baseRef !== undefined) {
    dims.push("base_ref = {base_ref:String}");
    params.base_ref = filters.baseRef;
  }
  if (filters.eventType) {
    dims.push(setCondition("type", filters.eventType, "types", "String"));
    params.types = filters.eventType.values;
  }
  if (filters.outcome) {
    dims.push(setCondition("outcome", filters.outcome, "outcomes", "String"));
    params.outcomes = filters.outcome.values;
  }
  common.push(...dims);
  if (filters.trigger) {
    p.trigger = setCondition("trigger", filters.trigger, "triggers", "String");
    params.triggers = filters.trigger.values;
  }
  if (filters.pullRequest) {
    p.pullRequest = setCondition("pull_request", filters.pullRequest, "pull_requests", "Int64");
    params.pull_requests = filters.pullRequest.values;
  }
  if (filters.batchPull) {
    p.batchPull = setCondition("batch_pull", filters.batchPull, "batch_pulls", "Int64");
    params.batch_pulls = filters.batchPull.values;
  }
  return p;
}

/** Every condition of a request (what `/logs` and `total` count). */
export function allConditions(p: LogPredicates): string[] {
  return [...p.common, ...[p.trigger, p.pullRequest, p.batchPull].filter((c): c is string => c !== undefined)];
}
