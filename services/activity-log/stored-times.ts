/**
 * What this process knows of the times of the events stored in the embedded ClickHouse, per
 * repository (docs/reliability.md "Load", the `/logs` answer cache): the relay's sink records the
 * `received_at` of every batch it sends, right after the store answered (or failed: a failed insert
 * may have landed), each batch with a sequence number. With the embedded engine every insert goes
 * through this process's sink (one process per data directory), so an event of a repository is
 * either older than what the store held when the cache first looked at the repository, or here.
 *
 * Bounded: per repository the newest {@link MAX_POINTS} distinct times and {@link MAX_BATCHES}
 * batches are kept; past that the answers become "maybe" (true) for what was forgotten.
 */

/** Distinct times kept per repository. */
const MAX_POINTS = 8_192;
/** Batches kept per repository. */
const MAX_BATCHES = 512;

interface RepositoryTimes {
  /** Distinct times (UTC ms), ascending. */
  points: number[];
  /** Times at or below this were forgotten (-Infinity: none). */
  forgottenUpTo: number;
  /** Recent batches, oldest first: their sequence number and distinct times. */
  batches: { seq: number; times: number[] }[];
  /** Batches with a sequence number up to this were forgotten (0: none). */
  forgottenSeq: number;
}

/** The record described in the file header. */
export class StoredTimes {
  private seq = 0;
  private readonly repos = new Map<string, RepositoryTimes>();

  /** The sequence number of the last batch recorded (0 before any). */
  get sequence(): number {
    return this.seq;
  }

  /** Records a batch of stored (or maybe stored) events: repository and `received_at` in UTC ms. */
  record(rows: readonly { repository: string; receivedAtMs: number }[]): void {
    if (rows.length === 0) return;
    const seq = ++this.seq;
    const byRepo = new Map<string, Set<number>>();
    for (const r of rows) {
      let set = byRepo.get(r.repository);
      if (!set) byRepo.set(r.repository, (set = new Set()));
      set.add(r.receivedAtMs);
    }
    for (const [repository, set] of byRepo) {
      let t = this.repos.get(repository);
      if (!t) this.repos.set(repository, (t = { points: [], forgottenUpTo: -Infinity, batches: [], forgottenSeq: 0 }));
      const times = [...set].sort((a, b) => a - b);
      for (const time of times) insertSorted(t.points, time);
      t.batches.push({ seq, times });
      if (t.points.length > MAX_POINTS)
        t.forgottenUpTo = Math.max(t.forgottenUpTo, ...t.points.splice(0, t.points.length - MAX_POINTS));
      if (t.batches.length > MAX_BATCHES)
        t.forgottenSeq = t.batches.splice(0, t.batches.length - MAX_BATCHES).at(-1)!.seq;
    }
  }

  /**
   * Whether an event of `repository` recorded after batch `sinceSeq` may lie in [fromMs, toMs).
   */
  storedSince(repository: string, sinceSeq: number, fromMs: number, toMs: number): boolean {
    const t = this.repos.get(repository);
    if (!t) return false;
    if (sinceSeq < t.forgottenSeq) return true;
    for (let i = t.batches.length - 1; i >= 0 && t.batches[i].seq > sinceSeq; i--) {
      if (firstAtOrAfter(t.batches[i].times, fromMs) < toMs) return true;
    }
    return false;
  }

  /**
   * Whether any event of `repository` may lie in [fromMs, toMs), given `olderUpTo`: the latest
   * `received_at` of the events the store held before any of this repository's were recorded
   * (read from the store after recording began).
   */
  mayHold(repository: string, olderUpTo: number | null, fromMs: number, toMs: number): boolean {
    if (fromMs >= toMs) return false;
    if (olderUpTo !== null && fromMs <= olderUpTo) return true;
    const t = this.repos.get(repository);
    if (!t) return false;
    if (fromMs <= t.forgottenUpTo) return true;
    return firstAtOrAfter(t.points, fromMs) < toMs;
  }
}

/** The first value >= x of an ascending array, or Infinity. */
function firstAtOrAfter(sorted: number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length ? sorted[lo] : Infinity;
}

/** Inserts x into an ascending array of distinct values (mostly appended: times grow). */
function insertSorted(sorted: number[], x: number): void {
  let i = sorted.length;
  while (i > 0 && sorted[i - 1] > x) i--;
  if (i > 0 && sorted[i - 1] === x) return;
  sorted.splice(i, 0, x);
}
