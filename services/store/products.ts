/**
 * Products enabled per repository (`repository_products`). A repository without a row for a
 * product has the default: merge_queue and workflow_automation enabled, merge_protections and
 * ci_insights disabled (docs/configuration.md "Products and unused sections"). A change writes its log event
 * (product.enabled / product.disabled) in the same transaction.
 */
import type pg from "pg";
import { withTransaction } from "./database.js";
import { appendToOutbox, type EventRow } from "./outbox.js";

/** The four products a repository may enable (admin.proto ProductService). */
export type ProductName = "merge_queue" | "workflow_automation" | "merge_protections" | "ci_insights";

/**
 * Each product's state on a repository without a row for it (docs/configuration.md "Products and
 * unused sections").
 */
export const PRODUCT_DEFAULTS: Readonly<Record<ProductName, boolean>> = {
  merge_queue: true,
  workflow_automation: true,
  merge_protections: false,
  ci_insights: false,
};

/** Each product and whether it is enabled on the repository. */
export async function productStates(
  db: pg.Pool | pg.ClientBase,
  repository: string,
): Promise<Record<ProductName, boolean>> {
  const res = await db.query<{ product: ProductName; enabled: boolean }>(
    "SELECT product, enabled FROM repository_products WHERE repository = $1::text",
    [repository],
  );
  const out = { ...PRODUCT_DEFAULTS };
  for (const r of res.rows) out[r.product] = r.enabled;
  return out;
}

/**
 * Whether `product` is enabled on `repository` (its default without a row): the hook every
 * product's code asks before acting (docs/configuration.md "Products and unused sections").
 */
export async function isProductEnabled(
  db: pg.Pool | pg.ClientBase,
  repository: string,
  product: ProductName,
): Promise<boolean> {
  return (await productStates(db, repository))[product];
}

/**
 * Sets a product's state; writes `event` when it changed, and `also`'s writes (the queue runner's
 * inbox input) in the same transaction.
 * @returns whether it changed
 */
export async function setProductEnabled(
  db: pg.Pool,
  repository: string,
  product: ProductName,
  enabled: boolean,
  event: () => EventRow,
  also: (client: pg.ClientBase) => Promise<void> = async () => {},
): Promise<boolean> {
  return withTransaction(db, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1::text, 9173))", [repository]);
    const current = (await productStates(client, repository))[product];
    if (current === enabled) return false;
    await client.query(
      `INSERT INTO repository_products (repository, product, enabled) VALUES ($1::text, $2::text, $3::boolean)
       ON CONFLICT (repository, product) DO UPDATE SET enabled = EXCLUDED.enabled, changed_at = now()`,
      [repository, product, enabled],
    );
    await appendToOutbox(client, [event()]);
    await also(client);
    return true;
  });
}
