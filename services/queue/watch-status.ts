/**
 * WatchMergeQueue (proto/yardmaster/v1/queue.proto; docs/api.md "Streams"): the status of
 * GetMergeQueueStatus at once, then again after every committed change of the repository's queue
 * state. Changes are learnt from PostgreSQL notifications (store/change-feed.ts, by any process);
 * each wake-up reads the state fresh (state-snapshots.ts) and sends a status only when the state
 * changed, at most one per {@link MIN_INTERVAL_MS} (coalesced), and once per {@link REFRESH_MS}
 * without change (the estimates move with the clock). The watcher's buffer keeps only the newest
 * status (live/live-stream.ts `latest`): a slow client gets fewer, never stale, statuses.
 */
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import {
  GetMergeQueueStatusResponseSchema,
  type GetMergeQueueStatusResponse,
  type WatchMergeQueueRequest,
  type WatchMergeQueueResponse,
} from "../../gen/yardmaster/v1/queue_pb.js";
import type { EngineState } from "../engine/index.js";
import { liveStream, messageBytes, sleep, Wakeup, type LiveRegistry } from "../live/index.js";
import { QUEUE_CHANNEL, type ChangeFeed } from "../store/index.js";
import { fullName } from "./caller.js";

/** Shortest spacing of two statuses of one stream, ms (at most 4 a second). */
export const MIN_INTERVAL_MS = 250;
/** A status is sent again after this long without change, ms. */
export const REFRESH_MS = 60_000;

/** What the watch needs: the live registry, the change feed, the clock and the status read. */
export interface WatchStatusDeps {
  registry: LiveRegistry;
  feed: ChangeFeed;
  /** Epoch milliseconds, UTC. */
  now: () => number;
  /** The status now and the state object it was computed from (null: never seen). */
  status(req: WatchMergeQueueRequest): Promise<{ state: EngineState | null; message: GetMergeQueueStatusResponse }>;
}

type Init = Omit<WatchMergeQueueResponse, "$typeName" | "$unknown">;

/** The WatchMergeQueue handler. */
export function watchMergeQueueHandler(deps: WatchStatusDeps) {
  return (req: WatchMergeQueueRequest, ctx: HandlerContext): AsyncIterable<Init> => {
    const repository = fullName(req).toLowerCase();
    return liveStream<Init>(deps.registry, { signal: ctx.signal, latest: true }, async (sink) => {
      const wake = new Wakeup();
      const unsubscribe = deps.feed.subscribe(QUEUE_CHANNEL, (payload) => {
        if (payload === null || payload.toLowerCase() === repository) wake.notify();
      });
      try {
        let sequence = 0n;
        let last: EngineState | null | undefined;
        let sentAt = 0;
        for (;;) {
          const { state, message } = await deps.status(req);
          const changed = sequence === 0n || state !== last;
          const at = deps.now();
          if (changed || at - sentAt >= REFRESH_MS) {
            sequence += 1n;
            sink.push(
              { status: message, computedAt: timestampFromMs(at), sequence, changed },
              messageBytes(GetMergeQueueStatusResponseSchema, message) + 24,
            );
            last = state;
            sentAt = at;
          }
          await wake.wait(Math.max(0, sentAt + REFRESH_MS - deps.now()), sink.signal);
          if (sink.signal.aborted) return;
          await sleep(sentAt + MIN_INTERVAL_MS - deps.now(), sink.signal);
          if (sink.signal.aborted) return;
        }
      } finally {
        unsubscribe();
      }
    });
  };
}
