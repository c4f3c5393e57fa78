/**
 * Where a `/logs` listing without `received_to` ends its window: not at "now" but at the instant
 * before which every event the service timed itself is already in ClickHouse (docs/activity-log.md
 * "Pages, cursors and links"). An event gets its `received_at` when its transaction writes it to
 * the PostgreSQL outbox and reaches ClickHouse later (the relay); a window ending at "now" would
 * let such an event land inside a listing after its first page was read, where no page shows it.
 * The end is therefore the earliest of:
 * - the clock (`now`);
 * - the oldest service-timed `received_at` still waiting in the outbox;
 * - the system clock minus {@link UNCOMMITTED_GRACE_MS}, for events whose transaction has not
 *   committed yet (the outbox write is among a transaction's last statements).
 * Imported events (AppendEvents with their own `received_at`) can fall into any past window at any
 * time; they are not waited for.
 */
import { FreshRead, oldestAssignedInOutbox, type Pool } from "../store/index.js";

/** The spacing of the outbox reads under load, ms (store/fresh-read.ts). */
const READ_SPACING_MS = 5;

/** How long an event written to the outbox may stay uncommitted, ms. */
export const UNCOMMITTED_GRACE_MS = 2000;

/**
 * The settled end (epoch ms, UTC) of a default window at `nowMs`: see the file header.
 * @param systemNowMs the system clock (Date.now), distinct from an injected `nowMs` in tests
 */
export async function settledWindowEnd(db: Pool, nowMs: number, systemNowMs: number = Date.now()): Promise<number> {
  const oldest = await oldestAssignedInOutbox(db);
  return Math.min(nowMs, systemNowMs - UNCOMMITTED_GRACE_MS, oldest ?? Infinity);
}

/**
 * {@link settledWindowEnd} for many concurrent requests: the outbox is read by one query at a time,
 * shared by the requests that arrived while the previous one ran, each answered by a query that
 * started after it arrived (store/fresh-read.ts), so the end is the same as a query of its own
 * would give, at a fraction of the queries under load.
 * @returns a function of `nowMs` (the request's clock, UTC ms) to the settled end
 */
export function settledWindowEnds(db: Pool): (nowMs: number) => Promise<number> {
  const oldest = new FreshRead<string, number | null>(() => oldestAssignedInOutbox(db), READ_SPACING_MS);
  return async (nowMs) => {
    const systemNowMs = Date.now();
    const o = await oldest.get("outbox");
    return Math.min(nowMs, systemNowMs - UNCOMMITTED_GRACE_MS, o ?? Infinity);
  };
}
