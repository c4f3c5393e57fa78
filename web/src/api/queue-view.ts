/**
 * The queue page's snapshot (docs/dashboard.md "Queue"): the branch's merge-queue status, the
 * position and estimated merge time of every queued pull request (ListQueues), and the pause.
 */
import type { GetMergeQueuePauseResponse, GetMergeQueueStatusResponse } from "../../../gen/yardmaster/v1/queue_pb.js";
import { queue } from "./clients.js";
import { poll, type Source } from "./live.js";

/** Where a queued pull request stands: 0-indexed position and estimated merge time (UTC). */
export interface Standing {
  position: number;
  estimatedMergeAt: Date | undefined;
}

/** One snapshot of a branch's queue. */
export interface QueueView {
  status: GetMergeQueueStatusResponse;
  /** Pull request number -> its standing, for the branch shown. */
  standings: Map<bigint, Standing>;
  pause: GetMergeQueuePauseResponse;
}

/** The repository a page is about. */
export interface RepositoryRef {
  owner: string;
  repository: string;
}

/** Polling interval of the queue page while no stream is available, in milliseconds. */
export const QUEUE_POLL_MS = 1000;

/** Loads the standings and the pause that go with a status. */
async function complete(repo: RepositoryRef, branch: string, status: GetMergeQueueStatusResponse, signal: AbortSignal) {
  const [queues, pause] = await Promise.all([
    queue.listQueues(repo, { signal }),
    queue.getMergeQueuePause(repo, { signal }),
  ]);
  const standings = new Map<bigint, Standing>();
  for (const q of queues.queues) {
    if (q.branch?.name !== branch) continue;
    for (const pr of q.pullRequests)
      standings.set(pr.number, {
        position: Number(pr.position),
        estimatedMergeAt: pr.estimatedTimeOfMerge
          ? new Date(Number(pr.estimatedTimeOfMerge.seconds) * 1000)
          : undefined,
      });
  }
  return { status, standings, pause };
}

/** Snapshots of a branch's queue, polled each {@link QUEUE_POLL_MS}. */
export function queueView(repo: RepositoryRef, branch: string): Source<QueueView> {
  return poll(async (signal) => {
    const status = await queue.getMergeQueueStatus({ ...repo, branch }, { signal });
    return complete(repo, branch, status, signal);
  }, QUEUE_POLL_MS);
}
