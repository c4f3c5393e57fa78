/**
 * The outbox relay (DESIGN.md §3 step 4): moves outbox rows to the event store (ClickHouse) in
 * batches of up to 1,000, oldest first. A batch is claimed (committed) before it is sent and
 * deleted only after the store acknowledged it. A batch that was claimed before (an earlier send
 * failed, or the process died after sending) is re-sent with `mayExist`, and the sink then skips
 * the rows it already holds, so a retry after an unclear failure never duplicates.
 * With the store down nothing is lost: the outbox grows and drains when it is back (retry with
 * exponential backoff up to 30 s). One relay runs at a time across processes
 * (pg_try_advisory_lock), so batches keep their order.
 */
import type pg from "pg";
import type { Logger } from "pino";
import { claimRelayBatch, deleteRelayBatch, pendingRelayBatches, relayBatchRows, type StoredEventRow } from "./outbox.js";

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

// An arbitrary, fixed advisory lock key for "the relay" (pg_try_advisory_lock takes a bigint).
const RELAY_LOCK = 7_420_195_311n;
const BATCH_SIZE = 1000;

/** Starts the relay loop; it polls every `intervalMs` (default 1 s) and on kick(). */
export function startOutboxRelay(deps: { pool: pg.Pool; sink: EventSink; logger: Logger; intervalMs?: number }): OutboxRelay {
  const interval = deps.intervalMs ?? 1000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<boolean> | undefined;
  let failures = 0;

  /** One cycle: returns true when the outbox was emptied, false when a send failed. */
  async function cycle(): Promise<boolean> {
    const client = await deps.pool.connect();
    try {
      const locked = (await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1::bigint) AS ok", [RELAY_LOCK.toString()])).rows[0].ok;
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
            await deps.sink.insertEvents(rows, { mayExist });
            await deleteRelayBatch(client, batch);
          }
        }
      } finally {
        await client.query("SELECT pg_advisory_unlock($1::bigint)", [RELAY_LOCK.toString()]);
      }
    } finally {
      client.release();
    }
  }

  function run(): Promise<boolean> {
    if (running) return running;
    running = cycle()
      .then((ok) => {
        failures = 0;
        return ok;
      })
      .catch((e: unknown) => {
        failures++;
        deps.logger.warn({ err: e, failures }, "event relay: the event store did not acknowledge; will retry");
        return false;
      })
      .finally(() => {
        running = undefined;
        schedule();
      });
    return running;
  }

  function schedule(): void {
    if (stopped) return;
    clearTimeout(timer);
    const delay = failures === 0 ? interval : Math.min(30_000, interval * 2 ** Math.min(failures, 5));
    timer = setTimeout(() => void run(), delay);
    timer.unref();
  }

  schedule();
  return {
    kick: () => {
      if (!stopped && failures === 0) void run();
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
