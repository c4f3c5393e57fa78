/**
 * The change signal of the live streams (docs/api.md "Streams"): one PostgreSQL session per
 * process LISTENs on {@link QUEUE_CHANNEL} (a trigger notifies every committed write of a queue
 * state, migration 0012) and {@link LOG_CHANNEL} (the relay notifies after each batch it stored in
 * the activity log, outbox-relay.ts); the queue runner's replicas listen on the same session to
 * their work and membership channels (replicas.ts). Notifications reach every process listening, so a change
 * committed by another process is seen too (https://www.postgresql.org/docs/15/sql-notify.html).
 *
 * A lost session (a database restart) is reconnected with exponential backoff (250 ms doubling to
 * 5 s); on every (re)connect each subscriber is called with `null` ("anything may have changed
 * while not listening"), so nothing committed meanwhile is missed.
 */
import pg from "pg";
import { REPLICAS_CHANNEL, WORK_CHANNEL } from "./replicas.js";

/** Channel of queue state changes; payload: the repository ("owner/name" as stored). */
export const QUEUE_CHANNEL = "yardmaster_queue";
/** Channel of events stored in the activity log; payload: JSON array of repositories, or "*". */
export const LOG_CHANNEL = "yardmaster_log";

/** Called with a notification's payload, or null after a (re)connect. */
export type ChangeListener = (payload: string | null) => void;

/** A running change feed ({@link startChangeFeed}). */
export interface ChangeFeed {
  /** Calls `fn` for each notification of `channel`; returns the unsubscribe function. */
  subscribe(channel: string, fn: ChangeListener): () => void;
  /** Ends the session; no listener is called afterwards. */
  close(): Promise<void>;
}

/** Every channel the feed listens on: the live streams' and the queue runner's replicas' (store/replicas.ts). */
const CHANNELS = [QUEUE_CHANNEL, LOG_CHANNEL, WORK_CHANNEL, REPLICAS_CHANNEL];

const MIN_RETRY_MS = 250;
const MAX_RETRY_MS = 5000;

/**
 * Starts listening on `url` (the DATABASE_URL in use). Resolves once the first session listens or
 * failed once (it keeps retrying in the background).
 * @param onError receives connection failures (for the log); never throws
 */
export async function startChangeFeed(url: string, onError: (e: Error) => void = () => {}): Promise<ChangeFeed> {
  const listeners = new Map<string, Set<ChangeListener>>();
  let client: pg.Client | undefined;
  let closed = false;
  let retry = MIN_RETRY_MS;
  let timer: NodeJS.Timeout | undefined;

  const emit = (channel: string, payload: string | null) => {
    for (const fn of listeners.get(channel) ?? []) fn(payload);
  };

  async function connect(): Promise<void> {
    if (closed) return;
    const c = new pg.Client({ connectionString: url });
    c.on("error", (e) => lost(c, e));
    c.on("end", () => lost(c, new Error("the change feed's PostgreSQL session ended")));
    c.on("notification", (n) => emit(n.channel, n.payload ?? null));
    try {
      await c.connect();
      await c.query(CHANNELS.map((channel) => `LISTEN ${channel}`).join("; "));
    } catch (e) {
      lost(c, e as Error);
      return;
    }
    if (closed) return void c.end().catch(() => {});
    client = c;
    retry = MIN_RETRY_MS;
    for (const channel of listeners.keys()) emit(channel, null);
  }

  function lost(c: pg.Client, e: Error): void {
    if (c.listenerCount("notification") === 0) return;
    c.removeAllListeners("notification");
    c.end().catch(() => {});
    if (client === c) client = undefined;
    if (closed) return;
    onError(e);
    timer = setTimeout(() => void connect(), retry);
    retry = Math.min(MAX_RETRY_MS, retry * 2);
  }

  await connect();
  return {
    subscribe(channel, fn) {
      let set = listeners.get(channel);
      if (!set) listeners.set(channel, (set = new Set()));
      set.add(fn);
      return () => void set.delete(fn);
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      const c = client;
      client = undefined;
      if (c) {
        c.removeAllListeners("notification");
        await c.end().catch(() => {});
      }
    },
  };
}
