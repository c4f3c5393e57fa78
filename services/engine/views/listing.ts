/**
 * The queue listing (docs/api.md "Queue listing", endpoint #17): queued pull requests per base branch
 * in queue order, one entry per partition a pull request is in. Times are epoch ms UTC.
 */
import { Ctx } from "../context.js";
import { effectivePriority, orderedTrainPulls, priorityAlias } from "../order.js";
import type { EngineState, QueueCheck } from "../state.js";
import { batchStatus, type BatchStatusCode } from "./batch-view.js";
import { mergeEstimates } from "./estimates.js";

/** One pull request of the listing (docs/api.md "Queue listing", QueuedPullRequest). Times: epoch ms. */
export interface QueuedPullRequestView {
  number: number;
  position: number;
  priority: number;
  effectivePriority: number;
  priorityAlias: string;
  partitionName: string;
  queueRuleName: string;
  queuedAt: number;
  estimatedTimeOfMerge: number | null;
  /** The check it is in; null while waiting for a batch. */
  mergeabilityCheck: {
    checkType: "in_place" | "draft_pr";
    pullRequestNumber: number | null;
    startedAt: number | null;
    endedAt: number | null;
    state: BatchStatusCode;
    /** The check runs reported for the check's pull request so far. */
    checks: QueueCheck[];
  } | null;
}

/** The listing: one entry per base branch, sorted by name. */
export interface QueueListingView {
  queues: { branch: { name: string }; pullRequests: QueuedPullRequestView[] }[];
}

/** Every branch's queue, branches sorted by name. */
export function queueListing(state: EngineState, now: number): QueueListingView {
  const ctx = new Ctx(state, now);
  const byBranch = new Map<string, QueuedPullRequestView[]>();
  for (const train of [...state.trains].sort(
    (a, b) => a.branch.localeCompare(b.branch) || a.partition.localeCompare(b.partition),
  )) {
    const est = mergeEstimates(ctx, train);
    const list = byBranch.get(train.branch) ?? [];
    orderedTrainPulls(ctx, train).forEach((number, position) => {
      const pull = ctx.mustPull(number);
      const batch = train.batches.find((c) => c.members.includes(number));
      const check = batch?.check ?? null;
      list.push({
        number,
        position,
        priority: pull.priority,
        effectivePriority: effectivePriority(ctx, pull),
        priorityAlias: priorityAlias(pull.priority),
        partitionName: train.partition,
        queueRuleName: pull.queueRule,
        queuedAt: pull.queuedAt,
        estimatedTimeOfMerge: batch ? (est.batches.get(batch.id) ?? null) : (est.waiting.get(number) ?? null),
        mergeabilityCheck:
          batch && check
            ? {
                checkType: check.mode === "in_place" ? "in_place" : "draft_pr",
                pullRequestNumber: check.number,
                startedAt: check.startedAt,
                endedAt: check.endedAt,
                state: batchStatus(train, batch),
                checks: check.checks,
              }
            : null,
      });
    });
    byBranch.set(train.branch, list);
  }
  return { queues: [...byBranch].map(([name, pullRequests]) => ({ branch: { name }, pullRequests })) };
}
