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
 */

interface Slot<V> {
  running: Promise<V> | null;
  waiting: Promise<V> | null;
}

/**
 * Coalesces `read(key)` calls as described in the file header. A failed read rejects the callers
 * it serves; the next call starts a new one.
 */
export class FreshRead<K, V> {
  private readonly slots = new Map<K, Slot<V>>();

  constructor(private readonly read: (key: K) => Promise<V>) {}

  /** A value of `key` read by a read that started after this call. */
  get(key: K): Promise<V> {
    let slot = this.slots.get(key);
    if (!slot) {
      slot = { running: null, waiting: null };
      this.slots.set(key, slot);
    }
    const running = slot.running;
    if (!running) return this.start(key, slot);
    if (slot.waiting) return slot.waiting;
    const s = slot;
    const next = running.then(noop, noop).then(() => {
      s.waiting = null;
      return this.start(key, s);
    });
    s.waiting = next;
    return next;
  }

  private start(key: K, slot: Slot<V>): Promise<V> {
    const p: Promise<V> = Promise.resolve()
      .then(() => this.read(key))
      .finally(() => {
        if (slot.running === p) slot.running = null;
        if (!slot.running && !slot.waiting && this.slots.get(key) === slot) this.slots.delete(key);
      });
    slot.running = p;
    return p;
  }
}

function noop(): void {}
