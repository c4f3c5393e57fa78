/**
 * The queue page's snapshot (docs/dashboard.md "Pages"): the branch's merge-queue status, the
 * position and estimated merge time of every queued pull request (ListQueues), the pause and the
 * scheduled freezes. Live from WatchMergeQueue (a new status on every committed change) and
 * WatchLogs of the pause and freeze events (queue.pause.*, scheduled_freeze.*: neither is part of
 * the status); polled when the server has no streams.
 */
import type {
  GetMergeQueuePauseResponse,
  GetMergeQueueStatusResponse,
  ScheduledFreeze,
} from "../../../gen/yardmaster/v1/queue_pb.js";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { activityLog, queue } from "./clients.js";
import { merge, poll, sleep, streamOr, type Source } from "./live.js";

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
  /** The repository's scheduled freezes, by start (ended ones included until deleted). */
  freezes: ScheduledFreeze[];
}

/** The repository a page is about. */
export interface RepositoryRef {
  owner: string;
  repository: string;
}

/** Polling interval of the queue page when the server has no streams, in milliseconds. */
export const QUEUE_POLL_MS = 1000;
/**
 * While streaming, the pause and freezes are also read again this often (ms): a pause or freeze
 * event the log's stream did not bring (a stream dropped and reopened meanwhile) shows within it.
 */
export const HOLDS_REFRESH_MS = 15_000;

/** The activity-log event types of a pause or freeze change (docs/pause.md, docs/scheduled-freeze.md). */
const PAUSE_EVENTS = [
  "queue.pause.create",
  "queue.pause.update",
  "queue.pause.delete",
  "scheduled_freeze.create",
  "scheduled_freeze.update",
  "scheduled_freeze.delete",
];

/** The pause and the freezes (read together: either may have changed). */
async function holdsOf(repo: RepositoryRef, signal: AbortSignal) {
  const [pause, freezes] = await Promise.all([
    queue.getMergeQueuePause(repo, { signal }),
    queue.listScheduledFreezes(repo, { signal }),
  ]);
  return { pause, freezes: freezes.scheduledFreezes };
}

/** The standings of the queued pull requests of `branch`. */
async function standingsOf(repo: RepositoryRef, branch: string, signal: AbortSignal) {
  const queues = await queue.listQueues(repo, { signal });
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
  return standings;
}

type Change = { status: GetMergeQueueStatusResponse } | { pause: true };

/**
 * Statuses from WatchMergeQueue, and a signal on every pause or freeze event of the log (and every
 * {@link HOLDS_REFRESH_MS}) to read the pause and freezes again.
 */
function streamed(repo: RepositoryRef, branch: string): Source<QueueView> {
  return async function* (signal) {
    const statuses = async function* (): AsyncIterable<Change> {
      for await (const m of queue.watchMergeQueue({ ...repo, branch }, { signal }))
        if (m.status) yield { status: m.status };
    };
    // From before the first read of the pause and freezes: a change made meanwhile is still seen.
    const from = timestampFromDate(new Date());
    const pauses = async function* (): AsyncIterable<Change> {
      for await (const _ of activityLog.watchLogs({ ...repo, eventType: PAUSE_EVENTS, receivedFrom: from }, { signal }))
        yield { pause: true };
    };
    const refreshes = async function* (): AsyncIterable<Change> {
      for (;;) {
        await sleep(HOLDS_REFRESH_MS, signal);
        if (signal.aborted) return;
        yield { pause: true };
      }
    };
    let holds = await holdsOf(repo, signal);
    let status: GetMergeQueueStatusResponse | undefined;
    for await (const change of merge([statuses(), pauses(), refreshes()])) {
      if ("status" in change) status = change.status;
      else holds = await holdsOf(repo, signal);
      if (status) yield { status, ...holds, standings: await standingsOf(repo, branch, signal) };
    }
  };
}

/** Snapshots polled each {@link QUEUE_POLL_MS}. */
function polled(repo: RepositoryRef, branch: string): Source<QueueView> {
  return poll(async (signal) => {
    const [status, holds, standings] = await Promise.all([
      queue.getMergeQueueStatus({ ...repo, branch }, { signal }),
      holdsOf(repo, signal),
      standingsOf(repo, branch, signal),
    ]);
    return { status, ...holds, standings };
  }, QUEUE_POLL_MS);
}

/** Snapshots of a branch's queue: streamed, or polled when the server has no streams. */
export function queueView(repo: RepositoryRef, branch: string): Source<QueueView> {
  return streamOr(streamed(repo, branch), polled(repo, branch));
}
