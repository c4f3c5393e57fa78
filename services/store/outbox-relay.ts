/**
 * The outbox relay (docs/architecture.md "A forge event, end to end" step 4): moves outbox rows to
 * the event store (ClickHouse) in batches of up to 1,000, oldest first. A batch is claimed
 * (committed) before it is sent and deleted only after the store acknowledged it. A batch that was
 * claimed before (an earlier send failed, or the process died after sending) is re-sent with
 * `mayExist`, and the sink then skips the rows it already holds, so a retry after an unclear failure never duplicates.
 * With the store down nothing is lost: the outbox grows and drains when it is back (retry with
 * exponential backoff capped at {@link RELAY_MAX_DELAY_MS}, so the log catches up within about
 * 2 s of ClickHouse's return; docs/activity-log.md "The log's lag"). Failures are logged at the
 * 1st, 2nd, 4th, 8th, ... in a row, and the return once. One relay runs at a time across
 * processes (pg_try_advisory_lock), so batches keep their order. The PostgreSQL connection held
 * through a cycle listens to its own `error` event: one that dies (a restart) fails the cycle,
 * which is retried, instead of ending the process.
 * Webhooks (docs/notifications.md "Where events come from"): the transaction that deletes an
 * acknowledged batch also creates the webhook deliveries of its events (webhooks.ts), so each
 * event is fanned out exactly once, and only once the activity log holds it.
 */
import type pg from "pg";
import type { Logger } from "pino";
import { FailureStreak } from "../outage/index.js";
import {
  claimRelayBatch,
  deleteRelayBatch,
  pendingRelayBatches,
  relayBatchRows,
  type StoredEventRow,
} from "./outbox.js";
import { LOG_CHANNEL } from "./change-feed.js";
import { withTransaction } from "./database.js";
import { fanOutRelayBatch } from "./webhooks.js";

/** Where relayed events go (activity-log/event-store.ts for ClickHouse). */
export interface EventSink {
  /**
   * Inserts rows; throws when not acknowledged. With `mayExist`, rows whose id the store already
   * holds are skipped (a retry of a batch that may have landed).
   */
  insertEvents(rows: StoredEventRow[], opts: { mayExist: boolean }): Promise<void>;
}

/**
 * A running outbox relay ({@link startOutboxRelay}); `drain` resolves true when the outbox was
 * emptied, false when a send failed.
 */
export interface OutboxRelay {
  /** Asks for a cycle now (after a commit that added events). */
  kick(): void;
  /** Runs cycles until the outbox is empty or a send fails; resolves when done. For tests and shutdown. */
  drain(): Promise<boolean>;
  /** Stops the loop after the current cycle. */
  stop(): Promise<void>;
}

/**
 * The advisory lock key of "the relay" (an arbitrary fixed bigint for pg_try_advisory_lock): the
 * session holding it relays; the others skip their cycle.
 */
export const RELAY_LOCK = 7_420_195_311n;
const BATCH_SIZE = 1000;
/** Longest wait between two tries of a failing relay, ms. */
export const RELAY_MAX_DELAY_MS = 2000;

/** Starts the relay loop; it polls every `intervalMs` (default 1 s) and on kick(). */
export function startOutboxRelay(deps: {
  pool: pg.Pool;
  sink: EventSink;
  logger: Logger;
  intervalMs?: number;
  /** Called after a batch created webhook deliveries (the delivery loop can start at once). */
  onDeliveries?: () => void;
}): OutboxRelay {
  const interval = deps.intervalMs ?? 1000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<boolean> | undefined;
  /** A kick arrived while a cycle ran: another cycle follows it at once. */
  let kicked = false;
  const failures = new FailureStreak();

  /** One cycle: returns true when the outbox was emptied, false when a send failed. */
  async function cycle(): Promise<boolean> {
    const client = await deps.pool.connect();
    let lost: Error | undefined;
    const onError = (e: Error) => void (lost ??= e);
    client.on("error", onError);
    try {
      const locked = (
        await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1::bigint) AS ok", [RELAY_LOCK.toString()])
      ).rows[0].ok;
      if (!locked) return true;
      try {
        for (;;) {
          // Batches already claimed were sent before, maybe successfully: the sink must check.
          let batches = await pendingRelayBatches(client);
          let mayExist = true;
          if (batches.length === 0) {
            const claimed = await claimRelayBatch(client, BATCH_SIZE);
            if (!claimed) return true;
            batches = [claimed];
            mayExist = false;
          }
          for (const batch of batches) {
            const rows = await relayBatchRows(client, batch);
            // A session that died let go of the relay lock: another relay may be sending this batch.
            if (lost) throw lost;
            await deps.sink.insertEvents(rows, { mayExist });
            const deliveries = await withTransaction(client, async (tx) => {
              const fannedOut = await fanOutRelayBatch(tx, batch);
              await deleteRelayBatch(tx, batch);
              return fannedOut;
            });
            if (deliveries > 0) deps.onDeliveries?.();
            // Live streams learn of the stored events (change-feed.ts), in every process.
            await client.query("SELECT pg_notify($1::text, $2::text)", [LOG_CHANNEL, notifyPayload(rows)]);
          }
        }
      } finally {
        const unlock = "SELECT pg_advisory_unlock($1::bigint)";
        if (!lost) await client.query(unlock, [RELAY_LOCK.toString()]).catch((e: Error) => void (lost = e));
      }
    } finally {
      client.removeListener("error", onError);
      // A client whose connection died is destroyed, not given back.
      client.release(lost);
    }
  }

  function run(): Promise<boolean> {
    if (running) return running;
    running = cycle()
      .then((ok) => {
        const ended = failures.succeed();
        if (ended > 0) deps.logger.info({ failures: ended }, "event relay: events flow again");
        return ok;
      })
      .catch((e: unknown) => {
        const { count, log } = failures.fail();
        const message = "event relay: the event store or the outbox did not answer; will retry";
        if (log) deps.logger.warn({ err: e, failures: count }, message);
        return false;
      })
      .finally(() => {
        running = undefined;
        // Events committed after the cycle's last claim were kicked for: relay them now, not a poll later.
        if (kicked && !stopped && failures.failures === 0) {
          kicked = false;
          void run();
        } else schedule();
      });
    return running;
  }

  function schedule(): void {
    if (stopped) return;
    clearTimeout(timer);
    const n = failures.failures;
    const delay = n === 0 ? interval : Math.min(RELAY_MAX_DELAY_MS, interval * 2 ** Math.min(n - 1, 5));
    timer = setTimeout(() => void run(), delay);
    timer.unref();
  }

  schedule();
  return {
    kick: () => {
      if (stopped || failures.failures !== 0) return;
      if (running) kicked = true;
      else void run();
    },
    drain: async () => {
      if (running) await running;
      return run();
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      if (running) await running;
    },
  };
}

/** Largest notification payload sent (PostgreSQL's limit is 8000 bytes). */
const MAX_PAYLOAD = 7000;

/**
 * The {@link LOG_CHANNEL} payload of a stored batch: the JSON array of its repositories, or "*"
 * (every repository) when that would not fit in a notification.
 */
export function notifyPayload(rows: readonly { repository: string }[]): string {
  const text = JSON.stringify([...new Set(rows.map((r) => r.repository))]);
  return text.length > MAX_PAYLOAD ? "*" : text;
}
