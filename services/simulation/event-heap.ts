/**
 * The simulation's agenda: a binary min-heap of timed items, ordered by time then by insertion
 * (items scheduled for the same instant run in the order they were scheduled).
 */

interface Entry<T> {
  at: number;
  seq: number;
  item: T;
}

/** Timed items, earliest first, ties in insertion order. */
export class EventHeap<T> {
  private readonly heap: Entry<T>[] = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  push(at: number, item: T): void {
    const h = this.heap;
    h.push({ at, seq: this.seq++, item });
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(h[i]!, h[p]!)) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }

  /** Time of the earliest item, or undefined when empty. */
  peekTime(): number | undefined {
    return this.heap[0]?.at;
  }

  /** Removes and returns the earliest item, or undefined when empty. */
  pop(): { at: number; item: T } | undefined {
    const h = this.heap;
    if (h.length === 0) return undefined;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.less(h[l]!, h[m]!)) m = l;
        if (r < h.length && this.less(h[r]!, h[m]!)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return { at: top.at, item: top.item };
  }

  private less(a: Entry<T>, b: Entry<T>): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }
}
