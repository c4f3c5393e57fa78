/**
 * The `/logs` answer cache of the embedded ClickHouse (docs/reliability.md "Load"). A page query
 * costs the embedded engine 5-10 ms, and the engine runs bound queries one at a time, so under
 * load pages queue behind each other; most of them ask again what was just answered. The cache
 * keeps the rows of recent pages and answers a page from them only when it can prove the rows are
 * exactly what the query would return now, using what the relay's sink recorded (stored-times.ts):
 *
 * - a page's rows (up to `limit + 1` in reading order) are kept with the window they were read
 *   for [f1, t1) and the sink's sequence number read before the query;
 * - they answer the same filters, `per_page` and start again when no event the filters may select
 *   was recorded since in [f1, t1); for a first page (no cursor) a window [f2, t2) whose end moved
 *   (a default window ends where the log has settled, which moves with the clock) is answered too
 *   when no event of the repository the filters may select lies between t1 and t2, and f2 >= f1 or
 *   the kept page was full: the rows of [f2, t2) are then those of [f1, t1) from f2 on, and the
 *   newest `limit + 1` of them are among the kept ones;
 * - "may select" is read from each recorded event's kind (stored-kinds.ts: type, pull request,
 *   base ref, outcome, trigger, batch pull request, matched as the SQL of log-sql.ts does), so a
 *   page filtered on one event type or pull request outlives the queue's other events; an event
 *   whose kind is unknown, events stored before the record began, and what the record forgot to
 *   stay bounded (stored-times.ts) count as selected;
 * - every other case reads ClickHouse; concurrent reads of the same page share one query.
 *
 * Only for the embedded engine: there every insert goes through this process's sink. A ClickHouse
 * server may be written by other processes, and answers its reads in parallel.
 */
import type { ClickHouseClient } from "@clickhouse/client";
import { LRUCache } from "lru-cache";
import { filterScope } from "./log-cursor.js";
import type { LogFilters, LogWindow } from "./log-filters.js";
import { readLogRows, type LogRow, type PageStart } from "./log-page.js";
import { kindMatch, type KindFields, type KindMatch } from "./stored-kinds.js";
import { StoredTimes } from "./stored-times.js";

interface Entry {
  window: LogWindow;
  seq: number;
  rows: LogRow[];
  /** The query returned `limit + 1` rows (more exist below the last). */
  full: boolean;
}

/** Pages kept, and the characters of their rows at most (least recently used dropped first). */
const MAX_PAGES = 2_000;
const MAX_CHARACTERS = 32 * 1024 * 1024;

/** The characters a page's rows hold (their metadata, most of it, and the other columns). */
function pageSize(e: Entry): number {
  let n = 1;
  for (const r of e.rows) n += r.metadata.length + r.trigger.length + r.repository.length + r.base_ref.length + 64;
  return n;
}

/** Reads the rows of a page, from the cache when they are provably current. */
export interface LogPageCache {
  /** The record of stored times (stored-times.ts), fed by {@link LogPageCache.sent}. */
  readonly times: StoredTimes;
  /**
   * What the relay's sink calls with every batch it sent, once the store answered or failed
   * (event-store.ts `onSent`): the events' repositories, `received_at` and the columns the filters
   * look at (type, pull request, base ref, outcome, trigger, batch pull request).
   */
  readonly sent: (rows: readonly ({ repository: string; receivedAt: Date } & KindFields)[]) => void;
  /**
   * The rows of a page as {@link readLogRows} returns them.
   * @throws the ClickHouse client's error when a query is needed and fails
   */
  rows(filters: LogFilters, window: LogWindow, after: PageStart, limit: number): Promise<LogRow[]>;
}

/** Builds the cache over `client` (an embedded engine: see the file header). */
export function createLogPageCache(client: ClickHouseClient, times = new StoredTimes()): LogPageCache {
  const pages = new LRUCache<string, Entry>({ max: MAX_PAGES, maxSize: MAX_CHARACTERS, sizeCalculation: pageSize });
  const inflight = new Map<string, Promise<Entry>>();
  /** Per repository: the latest received_at stored before its first cached read (null: none). */
  const olderUpTo = new LRUCache<string, { value: Promise<number | null> }>({ max: 10_000 });

  function older(repository: string): Promise<number | null> {
    let e = olderUpTo.get(repository);
    if (!e) {
      const value = client
        .query({
          query:
            "SELECT toString(max(toUnixTimestamp64Milli(received_at))) AS t, count() AS n FROM events WHERE repository = {repo:String}",
          query_params: { repo: repository },
          format: "JSONEachRow",
        })
        .then((rs) => rs.json<{ t: string; n: string }>())
        .then((r) => (Number(r[0].n) === 0 ? null : Number(r[0].t)));
      value.catch(() => olderUpTo.delete(repository));
      olderUpTo.set(repository, (e = { value }));
    }
    return e.value;
  }

  function answers(
    e: Entry,
    filters: LogFilters,
    match: KindMatch,
    w: LogWindow,
    after: PageStart,
    older: number | null,
  ): LogRow[] | null {
    const f1 = e.window.fromMs;
    const t1 = e.window.toMs;
    if (times.storedSince(filters.repository, e.seq, f1, t1, match)) return null;
    if (after !== null || (w.fromMs === f1 && w.toMs === t1)) return w.fromMs === f1 && w.toMs === t1 ? e.rows : null;
    if (times.mayHold(filters.repository, older, Math.min(t1, w.toMs), Math.max(t1, w.toMs), match)) return null;
    if (w.fromMs < f1 && !e.full) return null;
    return e.rows.filter((r) => Number(r.ms) >= w.fromMs && Number(r.ms) < w.toMs);
  }

  async function query(
    key: string,
    filters: LogFilters,
    window: LogWindow,
    after: PageStart,
    limit: number,
  ): Promise<Entry> {
    const seq = times.sequence;
    const rows = await readLogRows(client, filters, window, after, limit);
    const entry: Entry = { window, seq, rows, full: rows.length > limit };
    pages.set(key, entry);
    return entry;
  }

  return {
    times,
    sent: (rows) =>
      times.record(rows.map((r) => ({ repository: r.repository, receivedAtMs: r.receivedAt.getTime(), fields: r }))),
    async rows(filters, window, after, limit) {
      const key = JSON.stringify([
        filterScope(filters),
        limit,
        after?.direction ?? null,
        after?.position.receivedAtMs ?? null,
        String(after?.position.id ?? ""),
      ]);
      const old = after === null ? await older(filters.repository) : null;
      const match = kindMatch(filters);
      const cached = pages.get(key);
      const hit = cached && answers(cached, filters, match, window, after, old);
      if (hit) return hit;
      const running = inflight.get(key);
      if (running) {
        const shared = answers(await running, filters, match, window, after, old);
        if (shared) return shared;
      }
      const p = query(key, filters, window, after, limit).finally(() => {
        if (inflight.get(key) === p) inflight.delete(key);
      });
      inflight.set(key, p);
      return (await p).rows;
    },
  };
}
