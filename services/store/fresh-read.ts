/**
 * Coalesced fresh reads (docs/reliability.md "Load"): concurrent callers asking for the same key
 * share one read, and every caller is answered by a read that *started after its call*, so a value
 * committed before the call is never missed (a caller that just changed something reads its own
 * change), however many callers there are. At most one read per key runs at a time; callers that
 * arrive while it runs share the next one, which starts when it ends. Under load a read therefore
 * serves every caller that arrived during the previous one (the more callers, the more each read
 * serves), and a caller waits at most two reads. This is the "consistent read from cache" of the
 * Kubernetes API server (KEP-2340: the current revision is read fresh, the data comes from the
 * cache), with the revision reads coalesced.
 *
 * `minIntervalMs` spaces the reads of a key that follow each other: the next starts no sooner than
 * that long after the previous one started. Under constant load the reads would otherwise run
 * back to back (one per round trip, a thousand or more a second on a busy machine); spaced, each
 * serves more callers, for at most that much more waiting. A caller who finds no read running
 * waits for nothing beyond that spacing.
 */
import { LRUCache } from "lru-cache";

interface Slot<V> {
  running: Promise<V> | null;
  waiting: Promise<V> | null;
  /** When the last read started (performance.now()). */
  startedAt: number;
}

/** Keys whose last read is remembered (least recently used forgotten first). */
const MAX_KEYS = 10_000;

/**
 * Coalesces `read(key)` calls as described in the file header. A failed read rejects the callers
 * it serves; the next call starts a new one.
 */
export class FreshRead<K extends {}, V> {
  private readonly slots = new LRUCache<K, Slot<V>>({ max: MAX_KEYS });

  constructor(
    private readonly read: (key: K) => Promise<V>,
    private readonly minIntervalMs = 0,
  ) {}

  /** A value of `key` read by a read that started after this call. */
  get(key: K): Promise<V> {
    let slot = this.slots.get(key);
    if (!slot) this.slots.set(key, (slot = { running: null, waiting: null, startedAt: -Infinity }));
    if (slot.waiting) return slot.waiting;
    const running = slot.running;
    if (!running && performance.now() >= slot.startedAt + this.minIntervalMs) return this.start(key, slot);
    const s = slot;
    const next = (running ?? Promise.resolve()).then(noop, noop).then(async () => {
      const wait = s.startedAt + this.minIntervalMs - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      s.waiting = null;
      return this.start(key, s);
    });
    s.waiting = next;
    return next;
  }

  private start(key: K, slot: Slot<V>): Promise<V> {
    slot.startedAt = performance.now();
    const p: Promise<V> = Promise.resolve()
      .then(() => this.read(key))
      .finally(() => {
        if (slot.running === p) slot.running = null;
      });
    slot.running = p;
    return p;
  }
}

function noop(): void {}
