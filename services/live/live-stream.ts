/**
 * A watcher's stream (live-registry.ts): a producer pushes messages into a bounded buffer; the
 * transport takes them as the client reads (Connect and the SSE writer take the next message only
 * once the previous one was written out). Messages of a `latest` stream replace each other in the
 * buffer (WatchMergeQueue: a client only needs the newest status); the others queue, and their
 * producer waits for room ({@link LiveSink.room}). Rules and limits: docs/api.md "Streams".
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type { LiveRegistry, WatcherSlot } from "./live-registry.js";

/** What a producer writes to. */
export interface LiveSink<T> {
  /** Aborted when the stream ends (client gone, fell behind, shutdown): the producer returns. */
  readonly signal: AbortSignal;
  /** Buffers a message of `bytes` bytes (protobuf binary size); a queueing producer awaits {@link room} first. */
  push(message: T, bytes: number): void;
  /** Resolves when the buffer has room for one more message, or when the stream ends. */
  room(): Promise<void>;
}

/** How a stream behaves. */
export interface LiveStreamOptions {
  /** The client's call signal (aborted when it goes away). */
  signal: AbortSignal;
  /** Keep only the newest message (statuses) rather than queueing each (events). */
  latest?: boolean;
}

/**
 * Takes a watcher slot at once and gives the messages `produce` pushes as they may be written.
 * @throws ConnectError RESOURCE_EXHAUSTED (from this call) when the registry is full; from the
 *   iteration: RESOURCE_EXHAUSTED when the client fell behind, UNAVAILABLE when the server shuts
 *   down, the producer's own error when it fails
 */
export function liveStream<T>(
  registry: LiveRegistry,
  opts: LiveStreamOptions,
  produce: (sink: LiveSink<T>) => Promise<void>,
): AsyncGenerator<T> {
  return run(registry, registry.open(), opts, produce);
}

async function* run<T>(
  registry: LiveRegistry,
  slot: WatcherSlot,
  opts: LiveStreamOptions,
  produce: (sink: LiveSink<T>) => Promise<void>,
): AsyncGenerator<T> {
  const { maxBuffered, stallMs } = registry.limits;
  const buffer: { message: T; bytes: number }[] = [];
  let failure: Error | undefined;
  let ended = false;
  let wake: (() => void) | undefined;
  let roomWaiters: (() => void)[] = [];
  let stall: NodeJS.Timeout | undefined;
  const ac = new AbortController();
  const signal = AbortSignal.any([opts.signal, slot.signal, ac.signal]);

  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const freeRoom = () => {
    const waiters = roomWaiters;
    roomWaiters = [];
    for (const w of waiters) w();
  };
  const drop = () => {
    slot.account(-buffer.length, -buffer.reduce((n, b) => n + b.bytes, 0));
    buffer.length = 0;
  };
  const armStall = () => {
    if (stall || buffer.length === 0) return;
    stall = setTimeout(() => {
      failure = new ConnectError(
        `the client read nothing for ${stallMs / 1000} s while ${buffer.length} messages waited: the stream was dropped; reconnect (with the last cursor received, for WatchLogs)`,
        Code.ResourceExhausted,
      );
      drop();
      slot.release();
      ac.abort();
      notify();
    }, stallMs);
  };
  const disarmStall = () => {
    clearTimeout(stall);
    stall = undefined;
  };
  signal.addEventListener("abort", () => {
    if (!failure && slot.signal.aborted && !opts.signal.aborted)
      failure = new ConnectError("the server is shutting down: reconnect", Code.Unavailable);
    freeRoom();
    notify();
  });

  const sink: LiveSink<T> = {
    signal,
    push(message, bytes) {
      if (signal.aborted) return;
      if (opts.latest) drop();
      buffer.push({ message, bytes });
      slot.account(1, bytes);
      armStall();
      notify();
    },
    room() {
      if (buffer.length < maxBuffered || signal.aborted) return Promise.resolve();
      return new Promise((resolve) => roomWaiters.push(resolve));
    },
  };

  produce(sink).then(
    () => {
      ended = true;
      notify();
    },
    (e: unknown) => {
      failure ??= e instanceof Error ? e : new Error(String(e));
      notify();
    },
  );
  try {
    for (;;) {
      if (failure) throw failure;
      const next = buffer.shift();
      if (next) {
        slot.account(-1, -next.bytes);
        disarmStall();
        freeRoom();
        yield next.message;
        armStall();
        continue;
      }
      if (ended || opts.signal.aborted) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    disarmStall();
    drop();
    slot.release();
    ac.abort();
  }
}
