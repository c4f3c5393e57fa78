/**
 * Histogram buckets of `/logs/aggregate` (docs/activity-log.md
 * "Aggregates"): the interval is the smallest of 1 s, 5 s, 15 s, 30 s, 1 min, 5 min, 15 min, 1 h,
 * 3 h, 6 h, 12 h, 1 day and 7 days that covers the window with at most 100 buckets (the seconds
 * steps give a window fitted to a run of a minute or two more than one bar per minute); beyond that (windows over ~2 years),
 * the smallest multiple of 7 days that does. Buckets are aligned to the interval, counted from
 * Monday 1970-01-05 00:00 UTC (so hours, days and weeks start where people expect: 7-day buckets
 * start on Mondays); the first and last buckets may reach outside the window but count only events
 * inside it. An empty window (start = end) has no buckets.
 */
import { TIMESTAMP_RANGE_MS } from "../contracts/index.js";
import type { LogWindow } from "./log-filters.js";

/** The interval ladder, in seconds. */
export const INTERVAL_LADDER_SECONDS = [
  1, 5, 15, 30, 60, 300, 900, 3_600, 10_800, 21_600, 43_200, 86_400, 604_800,
] as const;
/** At most this many buckets. */
export const MAX_BUCKETS = 100;
/** Bucket boundaries are origin + k·interval: Monday 1970-01-05T00:00:00Z. */
export const BUCKET_ORIGIN_MS = Date.UTC(1970, 0, 5);

/** Where the buckets of a window are: `count` buckets of `stepMs` from `firstStartMs`. */
export interface HistogramLayout {
  stepMs: number;
  firstStartMs: number;
  count: number;
}

const alignDown = (ms: number, step: number) => BUCKET_ORIGIN_MS + Math.floor((ms - BUCKET_ORIGIN_MS) / step) * step;
const alignUp = (ms: number, step: number) => BUCKET_ORIGIN_MS + Math.ceil((ms - BUCKET_ORIGIN_MS) / step) * step;

function layoutFor(w: LogWindow, stepMs: number): HistogramLayout {
  if (w.toMs <= w.fromMs) return { stepMs, firstStartMs: alignDown(w.fromMs, stepMs), count: 0 };
  const first = alignDown(w.fromMs, stepMs);
  return { stepMs, firstStartMs: first, count: (alignUp(w.toMs, stepMs) - first) / stepMs };
}

/** The bucket layout of a window (see the module comment for the rule). */
export function histogramLayout(w: LogWindow): HistogramLayout {
  for (const s of INTERVAL_LADDER_SECONDS) {
    const l = layoutFor(w, s * 1000);
    if (l.count <= MAX_BUCKETS) return l;
  }
  const week = 604_800_000;
  let k = Math.max(2, Math.ceil((w.toMs - w.fromMs) / (week * (MAX_BUCKETS - 1))));
  for (;;) {
    const l = layoutFor(w, k * week);
    if (l.count <= MAX_BUCKETS) return l;
    k++;
  }
}

/** One bucket: [startMs, endMs) and its count. */
export interface Bucket {
  startMs: number;
  endMs: number;
  count: bigint;
}

/**
 * Every bucket of the layout, oldest first, with the counts found (bucket index -> count) and zeros
 * elsewhere. Bucket boundaries that would fall outside what a google.protobuf.Timestamp holds (a
 * window touching 0001-01-01 or 9999-12-31) are clamped to that range: the first bucket then starts
 * at 0001-01-01T00:00:00Z and the last ends at 9999-12-31T23:59:59.999Z.
 */
export function fillHistogram(layout: HistogramLayout, counts: ReadonlyMap<number, bigint>): Bucket[] {
  const [minMs, maxMs] = TIMESTAMP_RANGE_MS;
  const out: Bucket[] = [];
  for (let i = 0; i < layout.count; i++) {
    const startMs = layout.firstStartMs + i * layout.stepMs;
    out.push({
      startMs: Math.max(startMs, minMs),
      endMs: Math.min(startMs + layout.stepMs, maxMs),
      count: counts.get(i) ?? 0n,
    });
  }
  return out;
}
