/**
 * What the `/logs` filters select on, of a stored event (its "kind"), and whether a kind matches a
 * request's filters — with exactly the semantics of the SQL of log-sql.ts, so the answer cache
 * (page-cache.ts, stored-times.ts) can tell that a new event cannot enter a kept page. The kind is
 * taken as the events table holds it (migrations/0001_events.sql): `pull_request` and `batch_pull`
 * -1 for none, `base_ref` '' for none; a set filter keeps a row when its value is (include) or is
 * not (exclude) among the values; `base_ref` is an equality.
 *
 * When in doubt the answer is "may match": a row whose text is not well-formed UTF-16 or longer
 * than {@link MAX_TEXT} (what ClickHouse stores may then differ from the JavaScript string), or
 * whose numbers are not plain decimals in range, has no kind (null: matches every filter), and
 * filters holding text that is not well-formed match every kind.
 */
import type { LogFilters, SetFilter } from "./log-filters.js";

/** The columns of a stored event the filters look at, as the table holds them. */
export interface EventKind {
  type: string;
  /** -1n: none. */
  pullRequest: bigint;
  /** '': none. */
  baseRef: string;
  outcome: string;
  trigger: string;
  /** -1n: none. */
  batchPull: bigint;
}

/** The fields of a relayed row (store/outbox.ts StoredEventRow) a kind is read from. */
export interface KindFields {
  type: string;
  /** Decimal string, or null for none. */
  pullRequest: string | null;
  baseRef: string | null;
  outcome: string;
  trigger: string;
  /** Decimal string, or null for none. */
  batchPull: string | null;
}

/** Longer texts give no kind (bounds the memory a kind holds; base refs are 1-255 characters). */
const MAX_TEXT = 1024;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Decimals that surely fit Int64. */
const DECIMAL = /^-?\d{1,18}$/;

const plainText = (s: unknown): s is string => typeof s === "string" && s.length <= MAX_TEXT && !LONE_SURROGATE.test(s);

function number(s: string | null): bigint | undefined {
  if (s === null) return -1n;
  return typeof s === "string" && DECIMAL.test(s) ? BigInt(s) : undefined;
}

/** The kind of a relayed row, or null when it cannot be told exactly (matches every filter). */
export function kindOf(row: KindFields): EventKind | null {
  const baseRef = row.baseRef ?? "";
  if (![row.type, row.outcome, row.trigger, baseRef].every(plainText)) return null;
  const pullRequest = number(row.pullRequest);
  const batchPull = number(row.batchPull);
  if (pullRequest === undefined || batchPull === undefined) return null;
  return { type: row.type, pullRequest, baseRef, outcome: row.outcome, trigger: row.trigger, batchPull };
}

/** A key naming a kind exactly (for sharing one object per kind). */
export function kindKey(k: EventKind): string {
  return JSON.stringify([k.type, String(k.pullRequest), k.baseRef, k.outcome, k.trigger, String(k.batchPull)]);
}

/** Whether a kind may be selected by a request's filters. */
export type KindMatch = (k: EventKind) => boolean;

/** Matches every kind (a request without filters, or one in doubt). */
export const ANY_KIND: KindMatch = () => true;

function inSet<T>(f: SetFilter<T> | undefined, v: T): boolean {
  if (!f) return true;
  return f.values.includes(v) === (f.mode === "include");
}

/**
 * The match of `filters` (repository aside: the record is per repository), as log-sql.ts selects
 * rows: every filter given must hold.
 */
export function kindMatch(filters: LogFilters): KindMatch {
  const texts = [filters.baseRef, filters.eventType?.values, filters.outcome?.values, filters.trigger?.values]
    .flat()
    .filter((s) => s !== undefined);
  if (!texts.every((s) => typeof s === "string" && !LONE_SURROGATE.test(s))) return ANY_KIND;
  const { baseRef, eventType, outcome, trigger, pullRequest, batchPull } = filters;
  if (baseRef === undefined && !eventType && !outcome && !trigger && !pullRequest && !batchPull) return ANY_KIND;
  return (k) =>
    (baseRef === undefined || k.baseRef === baseRef) &&
    inSet(eventType, k.type) &&
    inSet<string>(outcome, k.outcome) &&
    inSet(trigger, k.trigger) &&
    inSet(pullRequest, k.pullRequest) &&
    inSet(batchPull, k.batchPull);
}
