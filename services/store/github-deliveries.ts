/**
 * GitHub webhook deliveries, de-duplicated by `X-GitHub-Delivery` (migration
 * 0004_github_deliveries.sql; docs/github.md "Webhooks"). The webhook route records a delivery
 * before handing its events over (each with an idempotency key: the delivery and the event's
 * place in it) and marks it processed afterwards; only a processed delivery is skipped. Times are
 * passed in (UTC `Date`), never read from the clock here.
 */
import type pg from "pg";

/**
 * Records a delivery as being processed, unless it was processed already.
 * @returns true when the caller must hand its events over (first time, or a delivery whose earlier
 *   processing never completed: its process died, or another process is processing it now; the
 *   events' idempotency keys make a second handover harmless); false when it was processed
 */
export async function claimGithubDelivery(db: pg.Pool, deliveryId: string, event: string, now: Date): Promise<boolean> {
  const res = await db.query(
    `INSERT INTO github_deliveries (delivery_id, event, claimed_at) VALUES ($1::text, $2::text, $3::timestamptz)
     ON CONFLICT (delivery_id) DO UPDATE SET claimed_at = EXCLUDED.claimed_at
       WHERE github_deliveries.processed_at IS NULL
     RETURNING 1`,
    [deliveryId, event, now],
  );
  return res.rowCount === 1;
}

/** Marks a delivery processed: later copies of it are acknowledged and skipped. */
export async function completeGithubDelivery(db: pg.Pool, deliveryId: string, now: Date): Promise<void> {
  await db.query("UPDATE github_deliveries SET processed_at = $2::timestamptz WHERE delivery_id = $1::text", [
    deliveryId,
    now,
  ]);
}

/** The idempotency key of the `index`-th forge event (from 0) of a delivery. */
export function githubEventKey(deliveryId: string, index: number): string {
  return `github:${deliveryId}:${index}`;
}

/**
 * Forgets deliveries claimed before `before` (GitHub redelivers on request for 3 days; keep a
 * week). @returns how many rows were deleted
 */
export async function pruneGithubDeliveries(db: pg.Pool, before: Date): Promise<number> {
  const res = await db.query("DELETE FROM github_deliveries WHERE claimed_at < $1::timestamptz", [before]);
  return res.rowCount ?? 0;
}
