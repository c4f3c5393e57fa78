/**
 * One queued pull request (docs/api.md "Queued pull request", endpoint #3). Position is
 * 0-based in its train (the first of its partitions): batch members in order, then waiting ones.
 * The queue rule is the engine's projection of it; the QueueService adds the configuration
 * object from the configuration module. Times are epoch ms UTC.
 */
import { usesInPlaceChecks, type EngineQueueRule } from "../config.js";
import { Ctx } from "../context.js";
import { orderedTrainPulls } from "../order.js";
import { checksTimeoutAt } from "../outcomes.js";
import type { EngineState, QueueCheck } from "../state.js";
import { batchStatus, type BatchStatusCode } from "./batch-view.js";
import { mergeEstimates } from "./estimates.js";

/**
 * The check a pull request is in (docs/api.md "Queued pull request", mergeability_check); null
 * while it waits for a batch.
 */
export interface MergeabilityCheckView {
  checkType: "in_place" | "draft_pr";
  /** The check's pull request (the draft, or the pull request itself in place); null before creation. */
  queuePullRequestNumber: number | null;
  startedAt: number | null;
  ciEndedAt: number | null;
  /** The check states Mergify's CLI renders (docs/mergify-cli.md). */
  ciState: "pending" | "success" | "failure";
  /** The batch status code. */
  state: BatchStatusCode;
  checks: QueueCheck[];
  batchId: string;
  batchName: string;
}

/** One queued pull request (docs/api.md "Queued pull request"). Times: epoch ms. */
export interface PullView {
  number: number;
  branch: string;
  partition: string;
  queuedAt: number;
  estimatedTimeOfMerge: number | null;
  position: number;
  priority: number;
  priorityRuleName: string | null;
  queueRuleName: string;
  queueRule: EngineQueueRule | null;
  checksTimeoutAt: number | null;
  mergeabilityCheck: MergeabilityCheckView | null;
  /** Whether the pull request would be checked in place (docs/merge-queue.md "Model"). */
  inPlace: boolean;
}

/** The view of a queued pull request, or null when it is in no merge queue (the API answers 404). */
export function pullView(state: EngineState, number: number, now: number): PullView | null {
  const ctx = new Ctx(state, now);
  const pull = ctx.pull(number);
  if (!pull) return null;
  const train = ctx
    .trainsOf(number)
    .sort((a, b) => pull.partitions.indexOf(a.partition) - pull.partitions.indexOf(b.partition))[0];
  if (!train) return null;
  const rule = ctx.rule(pull.queueRule) ?? null;
  const batch = train.batches.find((c) => c.members.includes(number));
  const est = mergeEstimates(ctx, train);
  const check = batch?.check ?? null;
  return {
    number,
    branch: train.branch,
    partition: train.partition,
    queuedAt: pull.queuedAt,
    estimatedTimeOfMerge: batch ? (est.batches.get(batch.id) ?? null) : (est.waiting.get(number) ?? null),
    position: orderedTrainPulls(ctx, train).indexOf(number),
    priority: pull.priority,
    priorityRuleName: pull.priorityRuleName,
    queueRuleName: pull.queueRule,
    queueRule: rule,
    checksTimeoutAt: batch ? checksTimeoutAt(ctx, batch) : null,
    mergeabilityCheck:
      batch && check
        ? {
            checkType: check.mode === "in_place" ? "in_place" : "draft_pr",
            queuePullRequestNumber: check.number,
            startedAt: check.startedAt,
            ciEndedAt: check.endedAt,
            ciState: check.phase === "passed" ? "success" : check.phase === "failed" ? "failure" : "pending",
            state: batchStatus(train, batch),
            checks: check.checks,
            batchId: batch.id,
            batchName: batch.name,
          }
        : null,
    inPlace: rule !== null && usesInPlaceChecks(state.config, rule),
  };
}
