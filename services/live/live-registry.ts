/**
 * The live streams of a process (docs/api.md "Streams", limits): every watcher (a WatchMergeQueue
 * or WatchLogs call, on any protocol) takes a slot, and its messages wait in a bounded buffer of
 * its own between the producer (the watcher's reads) and the client. A slow client therefore never
 * blocks the runner, the relay or other watchers; its producer stops reading while its buffer is
 * full. A client that takes no message for {@link LiveLimits.stallMs} while messages wait has
 * fallen behind: its buffer is freed, its slot released, and the stream ends with
 * RESOURCE_EXHAUSTED saying why (the client resumes from the last cursor it received), as the
 * Kubernetes API server ends a watch whose client is too slow
 * (https://kubernetes.io/docs/reference/using-api/api-concepts/#efficient-detection-of-changes).
 */
import { Code, ConnectError } from "@connectrpc/connect";

/** The limits of the live streams; defaults in {@link DEFAULT_LIVE_LIMITS}. */
export interface LiveLimits {
  /** Watchers open at once in this process; one more is refused with RESOURCE_EXHAUSTED. */
  maxWatchers: number;
  /** Messages a watcher's buffer holds; its producer waits while it is full. */
  maxBuffered: number;
  /** Milliseconds a client may leave waiting messages unread before it is dropped. */
  stallMs: number;
}

/** 1,000 watchers, 256 messages each, 30 s without reading (LIVE_* environment variables override). */
export const DEFAULT_LIVE_LIMITS: LiveLimits = { maxWatchers: 1000, maxBuffered: 256, stallMs: 30_000 };

/** What the buffers hold now, for `/readyz` (docs/api.md "Streams"). */
export interface LiveStats {
  watchers: number;
  /** Messages produced and not yet taken by their clients, over every watcher. */
  buffered_messages: number;
  /** Their size in protobuf binary bytes. */
  buffered_bytes: number;
}

/** One watcher's slot ({@link LiveRegistry.open}). */
export interface WatcherSlot {
  /** Aborted when the watcher must end: server shutdown, or {@link release}. */
  readonly signal: AbortSignal;
  /** Adds to (or, negative, takes from) the buffered counters. */
  account(messages: number, bytes: number): void;
  /** Gives the slot back (idempotent). */
  release(): void;
}

/** The registry of a process's watchers, its limits and counters. */
export class LiveRegistry {
  private readonly slots = new Set<{ ac: AbortController }>();
  private messages = 0;
  private bytes = 0;
  private closing = false;

  constructor(readonly limits: LiveLimits = DEFAULT_LIVE_LIMITS) {}

  /**
   * A slot for a new watcher.
   * @throws ConnectError RESOURCE_EXHAUSTED when {@link LiveLimits.maxWatchers} are open, UNAVAILABLE when shutting down
   */
  open(): WatcherSlot {
    if (this.closing) throw new ConnectError("the server is shutting down: reconnect", Code.Unavailable);
    if (this.slots.size >= this.limits.maxWatchers)
      throw new ConnectError(
        `this server holds its limit of ${this.limits.maxWatchers} open streams: retry later`,
        Code.ResourceExhausted,
      );
    const entry = { ac: new AbortController() };
    this.slots.add(entry);
    let held = { messages: 0, bytes: 0 };
    return {
      signal: entry.ac.signal,
      account: (m, b) => {
        if (!this.slots.has(entry)) return;
        held = { messages: held.messages + m, bytes: held.bytes + b };
        this.messages += m;
        this.bytes += b;
      },
      release: () => {
        if (!this.slots.delete(entry)) return;
        this.messages -= held.messages;
        this.bytes -= held.bytes;
        entry.ac.abort();
      },
    };
  }

  /** The counters now. */
  stats(): LiveStats {
    return { watchers: this.slots.size, buffered_messages: this.messages, buffered_bytes: this.bytes };
  }

  /** Ends every watcher (their streams end with UNAVAILABLE) and refuses new ones: server shutdown. */
  close(): void {
    this.closing = true;
    for (const s of [...this.slots]) s.ac.abort();
  }
}
