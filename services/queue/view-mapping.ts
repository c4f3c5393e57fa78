/**
 * Engine read views (services/engine/views, plain data, epoch ms) to QueueService messages
 * (queue.proto). Only shape changes here: every number and rule comes from the engine.
 */
import type { JsonObject, MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type {
  BatchPullRequestSchema,
  BatchSchema,
  GetMergeQueueStatusResponseSchema,
  MergeabilityCheckItemSchema,
  QueuedPullRequestSchema,
} from "../../gen/yardmaster/v1/queue_pb.js";
import type { BatchPullRequestView, BatchView, QueuedPullRequestView, StatusView } from "../engine/index.js";
import type { QueueCheck } from "../engine/index.js";

/** Epoch ms (or null) to an optional Timestamp. */
export const ts = (ms: number | null | undefined) =>
  ms === null || ms === undefined ? undefined : timestampFromMs(ms);

/**
 * A pull request of a batch or of the waiting list (docs/api.md "Merge queue status");
 * epoch-millisecond times become Timestamps. `estimatedMergeAt`
 * (epoch ms or null) is its batch's estimate, or its own while waiting.
 */
export function batchPullRequest(
  p: BatchPullRequestView,
  estimatedMergeAt: number | null,
): MessageInitShape<typeof BatchPullRequestSchema> {
  return {
    number: BigInt(p.number),
    title: p.title,
    url: p.url,
    author: { id: BigInt(p.author.id), login: p.author.login },
    queuedAt: ts(p.queuedAt),
    priorityAlias: p.priorityAlias,
    priorityRuleName: p.priorityRuleName ?? undefined,
    labels: p.labels,
    hostLabels: p.hostLabels.map((l) => ({ id: BigInt(l.id), name: l.name, color: l.color, default: l.default })),
    scopes: p.scopes,
    estimatedMergeAt: ts(estimatedMergeAt),
    allScopes: p.allScopes,
    mergeProtectionsHold: p.protectionsHold ?? undefined,
  };
}

/** A batch (docs/api.md "Merge queue status"), its sub-batches mapped recursively. */
export function batch(b: BatchView): MessageInitShape<typeof BatchSchema> {
  return {
    id: b.id,
    parentIds: b.parentIds,
    name: b.name,
    status: { code: b.status.code },
    startedAt: ts(b.startedAt),
    estimatedMergeAt: ts(b.estimatedMergeAt),
    estimatedCiFinishAt: ts(b.estimatedCiFinishAt),
    ciFinishedAt: ts(b.ciFinishedAt),
    scopes: b.scopes,
    queueRuleName: b.queueRuleName,
    checksSummary: b.checksSummary,
    pullRequests: b.pullRequests.map((p) => batchPullRequest(p, b.estimatedMergeAt)),
    subBatches: b.subBatches.map(batch),
    checks: b.checks.map(checkItem),
    maxBatchSlots: b.maxBatchSlots ?? 0,
    batchMaxStartAt: ts(b.batchMaxStartAt),
    checksTimeoutAt: ts(b.checksTimeoutAt),
  };
}

/**
 * The merge queue status response (docs/api.md "Merge queue status"): scope queues as lists of batch id
 * strings, batches, waiting pull requests, the mode and the pause (null when not paused).
 */
export function status(v: StatusView): MessageInitShape<typeof GetMergeQueueStatusResponseSchema> {
  return {
    scopeQueues: Object.fromEntries(
      Object.entries(v.scopeQueues).map(([scope, ids]) => [
        scope,
        { values: ids.map((id) => ({ kind: { case: "stringValue" as const, value: id } })) },
      ]),
    ),
    batches: v.batches.map(batch),
    waitingPullRequests: v.waitingPullRequests.map((p) => batchPullRequest(p, p.estimatedMergeAt)),
    automaticConflictResolutionUnsupported: v.automaticConflictResolutionUnsupported,
    mode: v.mode,
    pause: v.pause ? { reason: v.pause.reason, pausedAt: ts(v.pause.pausedAt) } : undefined,
  };
}

/** One check of a mergeability check (a null url becomes absent). */
export function checkItem(c: QueueCheck): MessageInitShape<typeof MergeabilityCheckItemSchema> {
  return { name: c.name, description: c.description, url: c.url ?? undefined, state: c.state };
}

/**
 * A pull request of the queue listing (docs/api.md "Queue listing"), with its queue rule and the
 * `evaluated_conditions` text given by the caller (the merge conditions as a Markdown checklist). A
 * check without a pull request number reports 0; `speculative_check_pull_request.checks` are the
 * check runs reported so far.
 */
export function queuedPullRequest(
  p: QueuedPullRequestView,
  queueRule: { name: string; config: Record<string, unknown> },
  evaluatedConditions: string,
): MessageInitShape<typeof QueuedPullRequestSchema> {
  const m = p.mergeabilityCheck;
  return {
    number: BigInt(p.number),
    position: BigInt(p.position),
    priority: BigInt(p.priority),
    effectivePriority: BigInt(p.effectivePriority),
    priorityAlias: p.priorityAlias,
    partitionName: p.partitionName,
    // The rule's configuration is JSON (a google.protobuf.Struct), held as a plain record.
    queueRule: { name: queueRule.name, config: queueRule.config as JsonObject },
    speculativeCheckPullRequest: m
      ? {
          inPlace: m.checkType === "in_place",
          number: BigInt(m.pullRequestNumber ?? 0),
          startedAt: ts(m.startedAt),
          endedAt: ts(m.endedAt),
          checks: m.checks.map(checkItem),
          evaluatedConditions,
          state: m.state,
        }
      : undefined,
    mergeabilityCheck: m
      ? {
          checkType: m.checkType,
          pullRequestNumber: BigInt(m.pullRequestNumber ?? 0),
          startedAt: ts(m.startedAt),
          endedAt: ts(m.endedAt),
          state: m.state,
        }
      : undefined,
    queuedAt: ts(p.queuedAt),
    estimatedTimeOfMerge: ts(p.estimatedTimeOfMerge),
  };
}
