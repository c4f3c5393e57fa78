/**
 * What this process knows of the times of the events stored in the embedded ClickHouse, per
 * repository (docs/reliability.md "Load", the `/logs` answer cache): the relay's sink records the
 * `received_at` of every batch it sends, right after the store answered (or failed: a failed insert
 * may have landed), each batch with a sequence number. With the embedded engine every insert goes
 * through this process's sink (one process per data directory), so an event of a repository is
 * either older than what the store held when the cache first looked at the repository, or here.
 *
 * With each time it keeps the event's kind (stored-kinds.ts: type, pull request, base ref, outcome,
 * trigger, batch pull request), so a question may be asked for the events a request's filters
 * select only: a page filtered on one event type is not dropped by an event of another.
 *
 * Bounded: per repository the newest {@link MAX_POINTS} distinct (time, kind) pairs and
 * {@link MAX_BATCHES} batches are kept; past that the answers become "maybe" (true) for what was
 * forgotten, whatever the filters. A row recorded without a kind, or whose kind cannot be told
 * exactly, matches every filter.
 */
import { ANY_KIND, kindKey, kindOf, type EventKind, type KindFields, type KindMatch } from "./stored-kinds.js";

/** Distinct (time, kind) pairs kept per repository. */
const MAX_POINTS = 8_192;
/** Batches kept per repository. */
const MAX_BATCHES = 512;
/** Kinds shared per repository before the sharing starts afresh (memory stays bounded by the points). */
const MAX_SHARED_KINDS = 4_096;

/** A recorded event: repository, `received_at` in UTC ms, and the columns the filters look at (absent: unknown). */
export interface RecordedEvent {
  repository: string;
  receivedAtMs: number;
  fields?: KindFields;
}

/** Times (ascending) with the kind of each (null: unknown, matches every filter). */
interface Points {
  times: number[];
  kinds: (EventKind | null)[];
}

interface RepositoryTimes {
  /** Distinct (time in UTC ms, kind) pairs, ascending by time. */
  points: Points;
  /** Times at or below this were forgotten (-Infinity: none). */
  forgottenUpTo: number;
  /** Recent batches, oldest first: their sequence number and distinct (time, kind) pairs. */
  batches: { seq: number; points: Points }[];
  /** Batches with a sequence number up to this were forgotten (0: none). */
  forgottenSeq: number;
  /** One object per kind seen (interned), keyed by kindKey. */
  shared: Map<string, EventKind>;
}

/** The record described in the file header. */
export class StoredTimes {
  private seq = 0;
  private readonly repos = new Map<string, RepositoryTimes>();

  /** The sequence number of the last batch recorded (0 before any). */
  get sequence(): number {
    return this.seq;
  }

  /**
   * Records a batch of stored (or maybe stored) events: repository, `received_at` in UTC ms, and
   * the columns the filters look at (an event without them matches every filter).
   */
  record(rows: readonly RecordedEvent[]): void {
    if (rows.length === 0) return;
    const seq = ++this.seq;
    const byRepo = new Map<string, RecordedEvent[]>();
    for (const r of rows) {
      let list = byRepo.get(r.repository);
      if (!list) byRepo.set(r.repository, (list = []));
      list.push(r);
    }
    for (const [repository, list] of byRepo) {
      let t = this.repos.get(repository);
      if (!t)
        this.repos.set(
          repository,
          (t = {
            points: { times: [], kinds: [] },
            forgottenUpTo: -Infinity,
            batches: [],
            forgottenSeq: 0,
            shared: new Map(),
          }),
        );
      const batch: Points = { times: [], kinds: [] };
      for (const r of [...list].sort((a, b) => a.receivedAtMs - b.receivedAtMs)) {
        const kind = this.share(t, r.fields ? kindOf(r.fields) : null);
        insertSorted(batch, r.receivedAtMs, kind);
        insertSorted(t.points, r.receivedAtMs, kind);
      }
      t.batches.push({ seq, points: batch });
      const excess = t.points.times.length - MAX_POINTS;
      if (excess > 0) {
        t.forgottenUpTo = Math.max(t.forgottenUpTo, t.points.times[excess - 1]);
        t.points.times.splice(0, excess);
        t.points.kinds.splice(0, excess);
      }
      if (t.batches.length > MAX_BATCHES)
        t.forgottenSeq = t.batches.splice(0, t.batches.length - MAX_BATCHES).at(-1)!.seq;
    }
  }

  /** The one object of a kind for a repository (so equal kinds compare by identity). */
  private share(t: RepositoryTimes, kind: EventKind | null): EventKind | null {
    if (kind === null) return null;
    const key = kindKey(kind);
    const known = t.shared.get(key);
    if (known) return known;
    if (t.shared.size >= MAX_SHARED_KINDS) t.shared.clear();
    t.shared.set(key, kind);
    return kind;
  }

  /**
   * Whether an event of `repository` that `match` selects (every event when absent), recorded
   * after batch `sinceSeq`, may lie in [fromMs, toMs).
   */
  storedSince(
    repository: string,
    sinceSeq: number,
    fromMs: number,
    toMs: number,
    match: KindMatch = ANY_KIND,
  ): boolean {
    const t = this.repos.get(repository);
    if (!t) return false;
    if (sinceSeq < t.forgottenSeq) return true;
    for (let i = t.batches.length - 1; i >= 0 && t.batches[i].seq > sinceSeq; i--) {
      if (anyIn(t.batches[i].points, fromMs, toMs, match)) return true;
    }
    return false;
  }

  /**
   * Whether an event of `repository` that `match` selects (every event when absent) may lie in
   * [fromMs, toMs), given `olderUpTo`: the latest `received_at` of the events the store held
   * before any of this repository's were recorded (read from the store after recording began;
   * their kinds are unknown).
   */
  mayHold(
    repository: string,
    olderUpTo: number | null,
    fromMs: number,
    toMs: number,
    match: KindMatch = ANY_KIND,
  ): boolean {
    if (fromMs >= toMs) return false;
    if (olderUpTo !== null && fromMs <= olderUpTo) return true;
    const t = this.repos.get(repository);
    if (!t) return false;
    if (fromMs <= t.forgottenUpTo) return true;
    return anyIn(t.points, fromMs, toMs, match);
  }
}

/** Whether a point in [fromMs, toMs) has an unknown kind or one `match` selects. */
function anyIn(p: Points, fromMs: number, toMs: number, match: KindMatch): boolean {
  for (let i = firstAtOrAfter(p.times, fromMs); i < p.times.length && p.times[i] < toMs; i++) {
    const k = p.kinds[i];
    if (k === null || match(k)) return true;
  }
  return false;
}

/** The index of the first value >= x of an ascending array (its length when none). */
function firstAtOrAfter(sorted: number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Inserts (time, kind) into points ascending by time, unless present (mostly appended: times grow). */
function insertSorted(p: Points, time: number, kind: EventKind | null): void {
  let i = p.times.length;
  while (i > 0 && p.times[i - 1] > time) i--;
  for (let j = i - 1; j >= 0 && p.times[j] === time; j--) if (p.kinds[j] === kind) return;
  p.times.splice(i, 0, time);
  p.kinds.splice(i, 0, kind);
}
