/**
 * The list of tests kept between reads (docs/ci-insights.md "How fresh the list is"). Computing
 * the list reads every test's figures over the window (health-page.ts, about 0.3 s of CPU at 1M
 * runs and growing with the runs), while a read needs a page of it: so each (repository, branch,
 * window in days) keeps its last computed list in this process, and a page is cut from it.
 *
 * - The first read of a key computes the list and waits for it; reads of the same key meanwhile
 *   share that computation (at most one in flight per key).
 * - After an ingest for the repository ({@link KeptHealth.stored}), each kept list of it is
 *   recomputed in the background, at most once every `refreshMs` (default 10 s) per key: the
 *   first ingest after a quiet period starts it at once, a burst is folded into one more
 *   computation when the interval has passed. A list computed while runs were being stored is
 *   recomputed again.
 * - A read of a list older than `maxAgeMs` (default 5 min), or computed on another UTC day,
 *   starts a recomputation too (the window slides with the clock; runs stored by another process
 *   sharing the ClickHouse tables are seen that way).
 * - A read never waits for a recomputation once a list exists: it gets the last one
 *   (stale-while-revalidate).
 * - A key nobody read for `idleMs` (default 5 min) is dropped, and so are the least recently read
 *   ones beyond `maxTests` tests kept in all (default 200,000: about 100 MB, estimated).
 */
import { LRUCache } from "lru-cache";
import type { ClickHouseClient } from "../activity-log/index.js";
import { healthList, type HealthList } from "./health-page.js";

const DAY_MS = 86_400_000;

/** A kept list: its key, the list, when it was computed (its window's end), and the ingest it saw. */
interface Entry {
  key: KeptKey;
  list: HealthList;
  computedAt: number;
  /** The repository's ingest sequence number read before the computation started. */
  seq: number;
}

/** What a key names: a branch of a repository over a window of `windowDays` days ending now. */
export interface KeptKey {
  repository: string;
  branch: string;
  windowDays: number;
}

/** Tuning (docs/ci-insights.md "How fresh the list is"); times in milliseconds. */
export interface KeptHealthOptions {
  /** The least time between two computations of one key after an ingest (default 10,000). */
  refreshMs?: number;
  /** A list this old, when read, is recomputed in the background (default 300,000). */
  maxAgeMs?: number;
  /** A key not read for this long is dropped (default 300,000). */
  idleMs?: number;
  /** Tests kept in all lists together at most (default 200,000). */
  maxTests?: number;
  /** Clock (default the system clock). */
  now?: () => Date;
  /** Told of each computation that ended with a list: its key and wall time (ms). */
  onComputed?: (key: KeptKey, wallMs: number) => void;
  /** Told of a background computation that failed (the last list is still served). */
  onError?: (error: unknown, key: KeptKey) => void;
}

/** The kept lists of one process. */
export interface KeptHealth {
  /**
   * The kept list of `key`: computed now when there is none (shared with reads of the same key
   * meanwhile), else the last one, with a background recomputation started when it is stale.
   * @throws ClickHouseError when the list has to be computed now and a query fails
   */
  list(key: KeptKey): Promise<HealthList>;
  /** Runs of `repository` were stored (after the insert returned): its lists are recomputed. */
  stored(repository: string): void;
  /** Computations started so far (for tests and benchmarks). */
  readonly computations: number;
  /** Stops the timers and waits for the computations in flight. */
  close(): Promise<void>;
}

const keyOf = (k: KeptKey) => JSON.stringify([k.repository, k.branch, k.windowDays]);

/** Builds the kept lists over `client`. */
export function createKeptHealth(client: ClickHouseClient, options: KeptHealthOptions = {}): KeptHealth {
  const refreshMs = options.refreshMs ?? 10_000;
  const maxAgeMs = options.maxAgeMs ?? 300_000;
  const now = () => (options.now ? options.now() : new Date()).getTime();
  const lists = new LRUCache<string, Entry>({
    max: 10_000,
    maxSize: options.maxTests ?? 200_000,
    sizeCalculation: (e) => Math.max(1, e.list.tests.length),
    ttl: options.idleMs ?? 300_000,
    updateAgeOnGet: true,
    ttlAutopurge: false,
  });
  /** Per repository, the sequence number of its latest ingest (a process-wide counter). */
  const seqs = new Map<string, number>();
  let lastSeq = 0;
  const inflight = new Map<string, Promise<Entry>>();
  /** Per key, the timer of its next computation. */
  const timers = new Map<string, NodeJS.Timeout>();
  let computations = 0;
  let closed = false;

  function compute(id: string, key: KeptKey): Promise<Entry> {
    const running = inflight.get(id);
    if (running) return running;
    computations++;
    const at = now();
    const seq = seqs.get(key.repository) ?? 0;
    const from = new Date(at - key.windowDays * DAY_MS);
    const t0 = performance.now();
    const p = healthList(client, { repository: key.repository, branch: key.branch, from }, new Date(at))
      .then((list) => {
        const entry = { key, list, computedAt: at, seq };
        if (!closed) lists.set(id, entry);
        options.onComputed?.(key, performance.now() - t0);
        return entry;
      })
      .finally(() => {
        inflight.delete(id);
        // Runs stored while it ran: it may not have seen them.
        if ((seqs.get(key.repository) ?? 0) !== seq) schedule(id, key);
      });
    inflight.set(id, p);
    return p;
  }

  /** Starts a background computation of `id`, at once or when `refreshMs` has passed since the last. */
  function schedule(id: string, key: KeptKey): void {
    if (closed || timers.has(id) || inflight.has(id)) return;
    // The last computation started when its list's window ended.
    const last = lists.peek(id, { allowStale: true })?.computedAt ?? Number.NEGATIVE_INFINITY;
    const timer = setTimeout(
      () => {
        timers.delete(id);
        // A key dropped meanwhile (not read for idleMs) is not computed for nobody.
        if (lists.has(id)) compute(id, key).catch((e) => options.onError?.(e, key));
      },
      Math.max(0, last + refreshMs - now()),
    );
    timer.unref();
    timers.set(id, timer);
  }

  const stale = (e: Entry, key: KeptKey, t: number) =>
    e.seq !== (seqs.get(key.repository) ?? 0) ||
    t - e.computedAt >= maxAgeMs ||
    Math.floor(t / DAY_MS) !== Math.floor(e.computedAt / DAY_MS);

  return {
    async list(key) {
      const id = keyOf(key);
      const kept = lists.get(id);
      if (kept === undefined) return (await compute(id, key)).list;
      if (stale(kept, key, now())) schedule(id, key);
      return kept.list;
    },
    stored(repository) {
      seqs.set(repository, ++lastSeq);
      for (const [id, e] of lists.entries()) if (e.key.repository === repository) schedule(id, e.key);
    },
    get computations() {
      return computations;
    },
    async close() {
      closed = true;
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      await Promise.allSettled([...inflight.values()]);
    },
  };
}
