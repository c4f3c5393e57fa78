/**
 * A bounded map whose entries expire: the GitHub adapter's caches (installation of a repository,
 * token verdicts). Time is injected (`now`, epoch milliseconds) so tests drive expiry. When full,
 * the oldest inserted entry goes first (a Map keeps insertion order; a re-set moves the key last).
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();

  /**
   * @param ttlMs how long an entry lives, in milliseconds (> 0)
   * @param maxEntries the most entries kept (> 0)
   * @param now the clock, epoch milliseconds
   */
  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!(ttlMs > 0) || !(maxEntries > 0)) throw new RangeError("TtlCache: ttlMs and maxEntries must be positive");
  }

  /** The live value of `key`; undefined when absent or expired (an expired entry is dropped). */
  get(key: K): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value;
  }

  /** Stores `value` for `ttlMs` from now, evicting the oldest entries beyond `maxEntries`. */
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as K;
      this.entries.delete(oldest);
    }
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** Number of entries held (expired ones included until read). */
  get size(): number {
    return this.entries.size;
  }
}
