/**
 * The QueueService implementation (proto/yardmaster/v1/queue.proto). Pause is served from
 * PostgreSQL (pause-handlers.ts). Until the queue engine lands, the other reads answer what is
 * true for a repository with no queue: no branches, an empty status with the `__default__` scope
 * key, NOT_FOUND for any pull request, no queues, no base refs; the configuration is empty (no
 * configuration file is read yet).
 */
import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import type { QueueService } from "../../gen/yardmaster/v1/queue_pb.js";
import { invalidField } from "../contracts/index.js";
import { pauseHandlers, type PauseDeps } from "./pause-handlers.js";

export type QueueServiceDeps = PauseDeps;

const DAY_MS = 86_400_000;

/**
 * The time window of `/queues/branches` (SPEC.md #18): end default now, start default end - 1 day.
 * @throws InvalidArgumentError ("start_at") when start is after end
 */
export function queueWindow(start: Timestamp | undefined, end: Timestamp | undefined, now: Date): { start: Date; end: Date } {
  const e = end ? timestampDate(end) : now;
  const s = start ? timestampDate(start) : new Date(e.getTime() - DAY_MS);
  if (s.getTime() > e.getTime()) throw invalidField("start_at", "must not be after end_at");
  return { start: s, end: e };
}

const notQueued = (n: bigint) => new ConnectError(`pull request ${n} is not in any merge queue`, Code.NotFound);

/** Builds the QueueService implementation. */
export function createQueueService(deps: QueueServiceDeps): Partial<ServiceImpl<typeof QueueService>> {
  return {
    ...pauseHandlers(deps),
    listMergeQueueBranches: async () => ({ branches: [] }),
    getMergeQueueStatus: async () => ({
      scopeQueues: { __default__: { values: [] } },
      batches: [],
      waitingPullRequests: [],
      automaticConflictResolutionUnsupported: true,
      mode: "serial",
    }),
    getQueuedPullRequest: async (req) => {
      throw notQueued(req.prNumber);
    },
    getDequeueImpact: async (req) => {
      throw notQueued(req.prNumber);
    },
    dequeuePullRequest: async (req) => {
      throw notQueued(req.prNumber);
    },
    getQueuesConfiguration: async () => ({ configuration: [] }),
    listQueues: async () => ({ queues: [] }),
    listQueueBaseRefs: async (req) => {
      queueWindow(req.startAt, req.endAt, new Date());
      return { baseRefs: [] };
    },
  };
}

