/**
 * The merge queue status (docs/api.md "Merge queue status", endpoint #2), the branch list (#1) and
 * the pause state (#8), read from the engine state. Pure. Times are epoch ms UTC.
 */
import { DEFAULT_SCOPE } from "../batches.js";
import { Ctx } from "../context.js";
import type { EngineState } from "../state.js";
import {
  bisectionView,
  batchView,
  formingView,
  lanesOf,
  pullRequestView,
  type BatchPullRequestView,
  type BatchView,
} from "./batch-view.js";
import { mergeEstimates } from "./estimates.js";
import { orderedWaiting } from "../order.js";

/** The status of one branch's queue (or every branch's). */
export interface StatusView {
  mode: "serial" | "parallel" | "isolated";
  /** Scope -> ids of its batches, in queue order; `__default__` is the unscoped lane (always present). */
  scopeQueues: Record<string, string[]>;
  batches: BatchView[];
  /** Queued pull requests not in a batch, in queue order (waiting estimates by number). */
  waitingPullRequests: (BatchPullRequestView & { estimatedMergeAt: number | null })[];
  /** Always true: conflicts are deferred or dequeued, never resolved automatically. */
  automaticConflictResolutionUnsupported: true;
  pause: { reason: string; pausedAt: number } | null;
}

/**
 * Status of the queue of `branch` (every branch when omitted): batches in train order with their
 * sub-batches while bisecting, the filling batch, then the waiting pull requests.
 */
export function statusView(state: EngineState, branch: string | undefined, now: number): StatusView {
  const ctx = new Ctx(state, now);
  const batches: BatchView[] = [];
  const waiting: StatusView["waitingPullRequests"] = [];
  let forming = 0;
  const seen = new Set<number>();
  for (const train of state.trains.filter((t) => branch === undefined || t.branch === branch)) {
    const est = mergeEstimates(ctx, train);
    const shown = new Set<string>();
    for (const b of train.bisections.filter(
      (x) =>
        x.parentId === null &&
        !train.batches.some((c) => c.bisectionId !== null && rootId(train, c.bisectionId) === x.id),
    )) {
      batches.push(bisectionView(ctx, train, b, est.batches));
      shown.add(b.id);
    }
    for (const batch of train.batches) {
      if (batch.bisectionId === null) {
        batches.push(batchView(ctx, train, batch, est.batches.get(batch.id) ?? null));
        continue;
      }
      const root = rootId(train, batch.bisectionId);
      if (shown.has(root)) continue;
      shown.add(root);
      batches.push(bisectionView(ctx, train, train.bisections.find((x) => x.id === root)!, est.batches));
    }
    const filling = formingView(ctx, train, forming);
    if (filling) {
      batches.push(filling);
      forming++;
    }
    for (const p of orderedWaiting(ctx, train)) {
      if (train.forming?.members.includes(p.number) || seen.has(p.number)) continue;
      seen.add(p.number);
      waiting.push({ ...pullRequestView(ctx, p.number)!, estimatedMergeAt: est.waiting.get(p.number) ?? null });
    }
  }
  const scopeQueues: Record<string, string[]> = { [DEFAULT_SCOPE]: [] };
  for (const b of batches) for (const lane of lanesOf(b)) (scopeQueues[lane] ??= []).push(b.id);
  return {
    mode: state.config.mode,
    scopeQueues,
    batches,
    waitingPullRequests: waiting,
    automaticConflictResolutionUnsupported: true,
    pause: state.pause ? { ...state.pause } : null,
  };
}

function rootId(train: EngineState["trains"][number], bisectionId: string): string {
  return train.bisections.find((x) => x.id === bisectionId)?.rootId ?? bisectionId;
}

/** Base branches with at least one queued pull request, sorted by name (endpoint #1). */
export function branchesWithQueue(state: EngineState): string[] {
  return [...new Set(Object.values(state.pulls).map((p) => p.baseRef))].sort();
}

/** Pause state (endpoint #8): `paused` false and the rest null when not paused. */
export function pauseView(state: EngineState): { paused: boolean; reason: string | null; pausedAt: number | null } {
  return state.pause
    ? { paused: true, reason: state.pause.reason, pausedAt: state.pause.pausedAt }
    : { paused: false, reason: null, pausedAt: null };
}
