/**
 * When `/logs/aggregate` may read the 12-hour rollups (migrations/0003_rollups.sql;
 * docs/activity-log.md "Rollups") instead of the events, without changing a single count:
 * - the histogram interval is a multiple of 12 hours (windows over ~25 days), so every rollup
 *   period lies inside one bucket;
 * - only the whole periods inside the window come from the rollups; the partial periods at its
 *   two ends are counted from the events;
 * - each rollup serves only the counts whose filters it can apply: the dimensions rollup (type,
 *   outcome, trigger, base ref) serves the histogram, total, by_event_type, by_outcome and
 *   by_trigger when there is no pull request or batch pull request filter; the pull request
 *   rollup serves by_pull_request when no other filter is set (its own is left out anyway); the
 *   batch pull request rollup likewise for by_batch_pull_request.
 */
import type { HistogramLayout } from "./histogram.js";
import type { LogFilters, LogWindow } from "./log-filters.js";

/** The rollup period: 12 hours, periods starting at 00:00 and 12:00 UTC. */
export const ROLLUP_PERIOD_MS = 43_200_000;

/** Which counts come from the rollups, over which whole periods (null: none). */
export interface RollupPlan {
  /** Whole rollup periods inside the window, [fromMs, toMs). */
  middle: LogWindow;
  dims: boolean;
  pullRequests: boolean;
  batchPulls: boolean;
}

/** The rollup plan of a request, or null when the events alone answer it. */
export function rollupPlan(f: LogFilters, window: LogWindow, layout: HistogramLayout): RollupPlan | null {
  if (layout.stepMs % ROLLUP_PERIOD_MS !== 0 || layout.firstStartMs % ROLLUP_PERIOD_MS !== 0) return null;
  const middle = {
    fromMs: Math.ceil(window.fromMs / ROLLUP_PERIOD_MS) * ROLLUP_PERIOD_MS,
    toMs: Math.floor(window.toMs / ROLLUP_PERIOD_MS) * ROLLUP_PERIOD_MS,
  };
  if (middle.fromMs >= middle.toMs) return null;
  const dimsOnly = f.baseRef === undefined && !f.eventType && !f.outcome && !f.trigger;
  const plan = {
    middle,
    dims: !f.pullRequest && !f.batchPull,
    pullRequests: dimsOnly && !f.batchPull,
    batchPulls: dimsOnly && !f.pullRequest,
  };
  return plan.dims || plan.pullRequests || plan.batchPulls ? plan : null;
}
