/**
 * The local forge's events, durable (docs/local-forge.md "Writes and events"): a write stores its
 * events in its own transaction (`local_forge_events`); after the commit they are handed to the
 * sink one by one, in order, each with its idempotency key (`local-forge:<id>`), and deleted once
 * the sink accepted them. A sink that throws keeps them: they are tried again after 1 s, doubling
 * up to 5 s (a database back from an outage gets them within seconds), and later events wait
 * behind them (order is kept). What a crash left in the table is loaded at start-up and delivered
 * first. A crash after the sink accepted an event and before its
 * row was deleted delivers it once more: the queue takes an event once per key
 * (`queue_inbox_keys`).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Logger } from "pino";
import type pg from "pg";
import { localForgeStore as store } from "../../store/index.js";
import type { ForgeEvent, ForgeEventSink } from "../types.js";

/** A stored event of the local forge. */
export type StoredEvent = store.StoredForgeEvent<ForgeEvent>;

/** The idempotency key of a stored local forge event (what the sink gets with it). */
export function localEventKey(id: number): string {
  return `local-forge:${id}`;
}

const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 5_000;

/** See the file header. */
export class LocalEventOutbox {
  private readonly pending: StoredEvent[] = [];
  private sink: ForgeEventSink | null;
  private chain: Promise<void> = Promise.resolve();
  private retry: NodeJS.Timeout | null = null;
  private retryMs = RETRY_FIRST_MS;
  private failing = false;
  private closed = false;
  /**
   * Active while the sink runs: a write the sink makes itself (and awaits) does not wait for the
   * delivery it is part of. Work the sink only starts (the runner it kicks) sees the token
   * inactive once the sink returned, and waits as any write does.
   */
  private readonly inSink = new AsyncLocalStorage<{ active: boolean }>();

  constructor(
    private readonly db: pg.Pool,
    private readonly logger: Logger,
    sink: ForgeEventSink | null,
  ) {
    this.sink = sink;
  }

  /** Stores a write's events in its transaction. @returns them with their ids, in order */
  store(client: pg.ClientBase, events: readonly ForgeEvent[]): Promise<StoredEvent[]> {
    return store.insertForgeEvents(client, events);
  }

  /**
   * Queues committed events behind those waiting and delivers. Resolves once they were handed to
   * the sink, or the delivery failed (they wait for the retry), or at once without a sink.
   */
  deliver(events: readonly StoredEvent[]): Promise<void> {
    this.pending.push(...events);
    if (this.inSink.getStore()?.active) return Promise.resolve();
    return this.pump();
  }

  /** Loads the events an earlier process left undelivered (start-up, before any new write). */
  async loadStored(): Promise<number> {
    const left = await store.storedForgeEvents<ForgeEvent>(this.db);
    const known = new Set(this.pending.map((e) => e.id));
    this.pending.unshift(...left.filter((e) => !known.has(e.id)));
    if (left.length > 0) {
      this.logger.info({ events: left.length }, "delivering the forge events an earlier process left undelivered");
    }
    return left.length;
  }

  /** Sets the sink (the queue, once it exists) and delivers what waits. */
  attach(sink: ForgeEventSink): Promise<void> {
    this.sink = sink;
    return this.pump();
  }

  /** Stops retrying and waits for a delivery in progress. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    await this.chain;
  }

  private pump(): Promise<void> {
    this.chain = this.chain.then(() => this.run());
    return this.chain;
  }

  private async run(): Promise<void> {
    const delivered: number[] = [];
    try {
      while (this.pending.length > 0 && this.sink !== null && !this.closed) {
        const next = this.pending[0]!;
        const sink = this.sink;
        const token = { active: true };
        try {
          await this.inSink.run(token, () => sink(next.event, localEventKey(next.id)));
        } catch (error) {
          if (!this.failing) {
            this.logger.error({ err: error, event: next.event }, "forge event sink failed; the event is kept");
          }
          this.failing = true;
          this.scheduleRetry();
          return;
        } finally {
          token.active = false;
        }
        this.pending.shift();
        delivered.push(next.id);
        this.failing = false;
        this.retryMs = RETRY_FIRST_MS;
      }
    } finally {
      // A failed delete only means these are delivered again after a restart (the queue takes each once).
      await store
        .deleteForgeEvents(this.db, delivered)
        .catch((e) =>
          this.logger.warn({ err: e, events: delivered.length }, "could not delete delivered forge events"),
        );
    }
  }

  private scheduleRetry(): void {
    if (this.retry !== null || this.closed) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.pump();
    }, wait);
    this.retry.unref();
  }
}
