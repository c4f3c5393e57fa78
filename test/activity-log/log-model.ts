/**
 * The brute-force model of `/logs` and `/logs/aggregate` the property tests compare against:
 * plain TypeScript over the events the test appended, written from docs/activity-log.md,
 * sharing no code with the ClickHouse queries. Outcomes and batch pull request
 * numbers are ingest rules (tested on their own in ingest.test.ts); the model takes them from
 * the ingest functions.
 */
import { batchPullOf, outcomeOf } from "../../services/activity-log/index.js";
import type { AppendInput } from "./log-harness.js";

/** An appended event with what ingest derived. */
export interface ModelEvent extends AppendInput {
  id: bigint;
  outcome: string;
  batchPull: bigint | null;
}

type Set<T> = { mode: "include" | "exclude"; values: T[] } | undefined;

/** Filters in model terms (event types already canonical). */
export interface ModelFilters {
  repository: string;
  pullRequest?: Set<bigint>;
  baseRef?: string;
  batchPull?: Set<bigint>;
  eventType?: Set<string>;
  outcome?: Set<string>;
  trigger?: Set<string>;
  fromMs: number;
  toMs: number;
}

export function modelEvent(e: AppendInput, id: bigint): ModelEvent {
  const bp = batchPullOf(e.type, e.metadata);
  return { ...e, id, outcome: outcomeOf(e.type, e.metadata), batchPull: bp === null ? null : BigInt(bp) };
}

const passes = <T>(s: Set<T>, v: T | null): boolean => {
  if (!s) return true;
  const inList = v !== null && s.values.includes(v);
  return s.mode === "include" ? inList : !inList;
};

type Facet = "trigger" | "pullRequest" | "batchPull";

/** Whether an event is counted, ignoring the filters named in `skip`. */
function matches(e: ModelEvent, f: ModelFilters, skip: Facet | null = null): boolean {
  return (
    e.repository === f.repository &&
    e.receivedAtMs >= f.fromMs &&
    e.receivedAtMs < f.toMs &&
    (f.baseRef === undefined || e.baseRef === f.baseRef) &&
    passes(f.eventType, e.type) &&
    passes(f.outcome, e.outcome) &&
    (skip === "trigger" || passes(f.trigger, e.trigger)) &&
    (skip === "pullRequest" || passes(f.pullRequest, e.pullRequest)) &&
    (skip === "batchPull" || passes(f.batchPull, e.batchPull))
  );
}

/** What `/logs` must list, newest first by (received_at, id). */
export function expectedList(events: ModelEvent[], f: ModelFilters): ModelEvent[] {
  return events
    .filter((e) => matches(e, f))
    .sort((a, b) => b.receivedAtMs - a.receivedAtMs || (b.id > a.id ? 1 : b.id < a.id ? -1 : 0));
}

const LADDER = [1, 5, 15, 30, 60, 300, 900, 3600, 10800, 21600, 43200, 86400, 604800];
const MONDAY = Date.UTC(1970, 0, 5);

/**
 * The histogram docs/activity-log.md "Aggregates" gives: the smallest interval of the ladder with
 * at most 100 aligned buckets.
 */
export function expectedHistogram(
  events: ModelEvent[],
  f: ModelFilters,
): { interval: number; buckets: { start: number; end: number; count: number }[] } {
  const rows = events.filter((e) => matches(e, f));
  for (const s of LADDER) {
    const step = s * 1000;
    const first = MONDAY + Math.floor((f.fromMs - MONDAY) / step) * step;
    const end = MONDAY + Math.ceil((f.toMs - MONDAY) / step) * step;
    const n = f.toMs > f.fromMs ? (end - first) / step : 0;
    if (n > 100) continue;
    const buckets = Array.from({ length: n }, (_, i) => ({
      start: first + i * step,
      end: first + (i + 1) * step,
      count: 0,
    }));
    for (const e of rows) buckets[Math.floor((e.receivedAtMs - first) / step)].count++;
    return { interval: s, buckets };
  }
  throw new Error("the model covers windows up to 700 days");
}

const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

function facet(values: (string | bigint | null)[], limit: number | null): { value: string; count: number }[] {
  const counts = new Map<string, { raw: string | bigint; count: number }>();
  for (const v of values) {
    if (v === null) continue;
    const k = String(v);
    counts.set(k, { raw: v, count: (counts.get(k)?.count ?? 0) + 1 });
  }
  const out = [...counts.values()].sort((a, b) => {
    if (b.count !== a.count) return b.count - a.count;
    if (typeof a.raw === "bigint" && typeof b.raw === "bigint") return a.raw < b.raw ? -1 : a.raw > b.raw ? 1 : 0;
    return byteOrder(String(a.raw), String(b.raw));
  });
  return (limit === null ? out : out.slice(0, limit)).map((x) => ({ value: String(x.raw), count: x.count }));
}

/** The five facets (docs/activity-log.md "Aggregates" rules 2-4). */
export function expectedFacets(events: ModelEvent[], f: ModelFilters) {
  const all = events.filter((e) => matches(e, f));
  const without = (skip: Facet) => events.filter((e) => matches(e, f, skip));
  return {
    byEventType: facet(
      all.map((e) => e.type),
      null,
    ),
    byOutcome: facet(
      all.map((e) => e.outcome),
      null,
    ),
    byTrigger: facet(
      without("trigger").map((e) => e.trigger),
      200,
    ),
    byPullRequest: facet(
      without("pullRequest").map((e) => e.pullRequest),
      200,
    ),
    byBatchPullRequest: facet(
      without("batchPull").map((e) => e.batchPull),
      200,
    ),
  };
}
