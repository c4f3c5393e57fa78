/**
 * GitHub webhook deliveries, de-duplicated by `X-GitHub-Delivery` (migration
 * 0004_github_deliveries.sql; docs/github.md "Webhooks"). The webhook route claims a delivery
 * before handing its events over, completes it afterwards, and releases it when the handover
 * failed. Times are passed in (UTC `Date`), never read from the clock here.
 */
import type pg from "pg";

/** A claim older than this with no completion is taken to belong to a dead process, in ms. */
export const GITHUB_CLAIM_TIMEOUT_MS = 10 * 60_000;

/**
 * Claims a delivery for processing.
 * @returns true when the caller must process it; false when it was processed already or another
 *   process is processing it now (claimed less than {@link GITHUB_CLAIM_TIMEOUT_MS} ago)
 */
export async function claimGithubDelivery(db: pg.Pool, deliveryId: string, event: string, now: Date): Promise<boolean> {
  const stale = new Date(now.getTime() - GITHUB_CLAIM_TIMEOUT_MS);
  const res = await db.query(
    `INSERT INTO github_deliveries (delivery_id, event, claimed_at) VALUES ($1::text, $2::text, $3::timestamptz)
     ON CONFLICT (delivery_id) DO UPDATE SET claimed_at = EXCLUDED.claimed_at
       WHERE github_deliveries.processed_at IS NULL AND github_deliveries.claimed_at < $4::timestamptz
     RETURNING 1`,
    [deliveryId, event, now, stale],
  );
  return res.rowCount === 1;
}

/** Marks a claimed delivery processed: later copies of it are acknowledged and skipped. */
export async function completeGithubDelivery(db: pg.Pool, deliveryId: string, now: Date): Promise<void> {
  await db.query("UPDATE github_deliveries SET processed_at = $2::timestamptz WHERE delivery_id = $1::text", [deliveryId, now]);
}

/** Drops an unfinished claim (the events were not handed over): a redelivery will be processed. */
export async function releaseGithubDelivery(db: pg.Pool, deliveryId: string): Promise<void> {
  await db.query("DELETE FROM github_deliveries WHERE delivery_id = $1::text AND processed_at IS NULL", [deliveryId]);
}

/**
 * Forgets deliveries claimed before `before` (GitHub redelivers on request for 3 days; keep a
 * week). @returns how many rows were deleted
 */
export async function pruneGithubDeliveries(db: pg.Pool, before: Date): Promise<number> {
  const res = await db.query("DELETE FROM github_deliveries WHERE claimed_at < $1::timestamptz", [before]);
  return res.rowCount ?? 0;
}
