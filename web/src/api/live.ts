/**
 * The dashboard's live data layer (docs/dashboard.md "Live updates"). A page asks for a *source*:
 * a function that, given an AbortSignal, returns an AsyncIterable of snapshots. Components only
 * see the latest snapshot through {@link useLive}; whether the snapshots come from a server stream
 * (WatchMergeQueue, WatchLogs) or from polling the unary RPCs is the source's business, so a
 * stream replaces polling without any change to the components.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { useEffect, useState } from "preact/hooks";
import { endSession } from "../session.js";
import { REFUSED_TOKEN } from "./clients.js";

/** Snapshots of one view until `signal` aborts. */
export type Source<T> = (signal: AbortSignal) => AsyncIterable<T>;

/** What a component renders from a source: the latest snapshot, the last error, and whether live. */
export interface Live<T> {
  value: T | undefined;
  error: Error | undefined;
  /** True while the source is connected and answering. */
  live: boolean;
  /**
   * True when the source failed with an answer that trying again cannot change (not found, not
   * allowed, invalid): it is not reopened, and the page shows the error instead of "reconnecting".
   */
  stopped: boolean;
}

/** Codes after which a source is not reopened (the answer would be the same). */
const FINAL = new Set<Code>([Code.InvalidArgument, Code.NotFound, Code.PermissionDenied, Code.Unauthenticated]);

/** Whether `e` is an answer that trying again cannot change. */
export function isFinal(e: unknown): boolean {
  return e instanceof ConnectError && FINAL.has(e.code);
}

/** Waits `ms` milliseconds, or less when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
  });
}

/**
 * A source polling `load` every `intervalMs` milliseconds. A failed load is thrown once to the
 * consumer (which shows it and reconnects), so an outage is visible rather than a frozen page.
 */
export function poll<T>(load: (signal: AbortSignal) => Promise<T>, intervalMs: number): Source<T> {
  return async function* (signal) {
    while (!signal.aborted) {
      yield await load(signal);
      await sleep(intervalMs, signal);
    }
  };
}

/** Retry delay after a source fails, in milliseconds: 1 s doubling to 15 s. */
function backoff(attempt: number): number {
  return Math.min(15_000, 1000 * 2 ** attempt);
}

/**
 * Subscribes to `source` while the component is mounted and `deps` are the same; a failed source
 * is reopened with backoff (the last snapshot stays on screen, with the error beside it).
 */
export function useLive<T>(source: Source<T>, deps: unknown[]): Live<T> & { refresh: () => void } {
  const [state, setState] = useState<Live<T>>({ value: undefined, error: undefined, live: false, stopped: false });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const abort = new AbortController();
    setState((s) => ({ ...s, live: false, stopped: false }));
    (async () => {
      for (let attempt = 0; !abort.signal.aborted; attempt++) {
        try {
          for await (const value of source(abort.signal)) {
            if (abort.signal.aborted) return;
            attempt = 0;
            setState({ value, error: undefined, live: true, stopped: false });
          }
          return;
        } catch (e) {
          if (abort.signal.aborted) return;
          const error = ConnectError.from(e);
          // A stream's refusal arrives while reading it, past the client's interceptor.
          if (error.code === Code.Unauthenticated) endSession(REFUSED_TOKEN);
          const stopped = isFinal(error);
          setState((s) => ({ ...s, error: e as Error, live: false, stopped }));
          if (stopped) return;
          await sleep(backoff(attempt), abort.signal);
        }
      }
    })();
    return () => abort.abort();
  }, [...deps, generation]);
  return { ...state, refresh: () => setGeneration((g) => g + 1) };
}

/** The values of several async iterables as they come, until all end or one throws. */
export async function* merge<T>(sources: AsyncIterable<T>[]): AsyncIterable<T> {
  const iterators = sources.map((s) => s[Symbol.asyncIterator]());
  const pending = new Map<number, Promise<{ i: number; r: IteratorResult<T> }>>();
  const next = (i: number) =>
    pending.set(
      i,
      iterators[i].next().then((r) => ({ i, r })),
    );
  iterators.forEach((_, i) => next(i));
  try {
    while (pending.size > 0) {
      const { i, r } = await Promise.race(pending.values());
      if (r.done) pending.delete(i);
      else {
        next(i);
        yield r.value;
      }
    }
  } finally {
    // The others stop; a failure they answer meanwhile is theirs, not the consumer's.
    for (const p of pending.values()) p.catch(() => undefined);
    for (const it of iterators) it.return?.()?.catch(() => undefined);
  }
}

/**
 * A source reading `stream` while the server serves it, and `fallback` (polling) when it answers
 * UNIMPLEMENTED (a server, or a split deployment's remote service, without the streaming RPCs).
 */
export function streamOr<T>(stream: Source<T>, fallback: Source<T>): Source<T> {
  return async function* (signal) {
    try {
      yield* stream(signal);
    } catch (e) {
      if ((e as { code?: number }).code !== 12) throw e;
      yield* fallback(signal);
    }
  };
}

/**
 * A source that loads once, then again on every message of `changes` (a server stream that says
 * something changed), falling back to polling `load` every `pollMs` without streams.
 */
export function reloadOn<T>(
  load: (signal: AbortSignal) => Promise<T>,
  changes: (signal: AbortSignal) => AsyncIterable<unknown>,
  pollMs: number,
): Source<T> {
  return streamOr(
    async function* (signal) {
      const stream = changes(signal)[Symbol.asyncIterator]();
      // The stream is opened before the first load, so no change between the two is missed.
      const first = stream.next();
      first.catch(() => undefined); // awaited below; a failure before that is not unhandled
      yield await load(signal);
      for (let r = await first; !r.done; r = await stream.next()) yield await load(signal);
    },
    poll(load, pollMs),
  );
}

/**
 * A source that loads once, then again after changes (a server stream that says something
 * changed), at most once every `minMs` however many changes come, falling back to polling `load`
 * every `pollMs` without streams. For views whose reading costs more than a change is worth (the
 * statistics), where {@link reloadOn} would read again on every change.
 */
export function reloadThrottled<T>(
  load: (signal: AbortSignal) => Promise<T>,
  changes: (signal: AbortSignal) => AsyncIterable<unknown>,
  minMs: number,
  pollMs: number,
): Source<T> {
  return streamOr(
    async function* (signal) {
      let dirty = false;
      let ended = false;
      let failed: unknown = null;
      const waker: { wake: (() => void) | null } = { wake: null };
      signal.addEventListener("abort", () => waker.wake?.(), { once: true });
      // The stream is opened before the first load, so no change between the two is missed.
      (async () => {
        try {
          for await (const _ of changes(signal)) {
            dirty = true;
            waker.wake?.();
          }
        } catch (e) {
          failed = e;
        }
        ended = true;
        waker.wake?.();
      })();
      yield await load(signal);
      while (!signal.aborted) {
        if (!dirty && !ended) await new Promise<void>((resolve) => (waker.wake = resolve));
        waker.wake = null;
        if (failed !== null) throw failed;
        if (!dirty) return;
        await sleep(minMs, signal);
        dirty = false;
        yield await load(signal);
      }
    },
    poll(load, pollMs),
  );
}

/** The most WatchLogs streams from the past, less a margin for clocks (docs/api.md "Streams": one day). */
const WATCH_BACK_MS = 23 * 3_600_000;

/**
 * Where a WatchLogs that follows a listing starts. The listing ends where the log has settled (a
 * few seconds back, more while the relay lags behind), so a stream opened at "now" would miss the
 * events between the two: it starts at the newest listed event instead (inclusive, so the caller
 * drops what it already has by id), or, when nothing was listed, at the listing's window start
 * (`windowFrom`), not further back than the stream allows. `receivedAt` values are those of the
 * listed events; `now` is epoch milliseconds.
 */
export function tailStart(
  receivedAt: ({ seconds: bigint; nanos: number } | undefined)[],
  windowFrom: Date,
  now = Date.now(),
): Date {
  const newest = receivedAt.reduce((m, t) => (t ? Math.max(m, Number(t.seconds) * 1000 + t.nanos / 1e6) : m), 0);
  return new Date(Math.max(newest, windowFrom.getTime(), now - WATCH_BACK_MS));
}
