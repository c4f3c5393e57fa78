/**
 * The ProductService (admin.proto): which products are enabled on a repository, read by the
 * configuration simulator's `unused_sections`. A change logs product.enabled / product.disabled
 * (docs/events.md "Event types") with the caller as actor, in the same transaction.
 */
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import type { ProductService } from "../../gen/yardmaster/v1/admin_pb.js";
import { internalEventRow } from "../activity-log/index.js";
import { principalKey } from "../auth/index.js";
import { productStates, setProductEnabled, type Pool, type PoolClient, type ProductName } from "../store/index.js";

/**
 * Builds the ProductService: `setProductEnabled` answers `changed` (false when the product already had
 * that state, nothing written), records the change for the queue runner with `productChanged` in
 * the same transaction (the runner's inbox: docs/configuration.md "Products and unused sections", what each switch
 * does) and calls `eventsWritten` after a logged change; `listProducts` answers all four products
 * with their defaults filled (docs/configuration.md "Products and unused sections").
 */
export function createProductService(deps: {
  db: Pool;
  eventsWritten: () => void;
  productChanged?: (client: PoolClient, repository: string, product: ProductName, enabled: boolean) => Promise<void>;
}): ServiceImpl<typeof ProductService> {
  return {
    async setProductEnabled(req, ctx: HandlerContext) {
      const principal = ctx.values.get(principalKey);
      if (!principal) throw new Error("no principal on an authenticated call");
      const repository = `${req.owner}/${req.repository}`;
      const actor = { type: principal.actor.type, id: principal.actor.id, name: principal.actor.name };
      const at = new Date().toISOString();
      const changed = await setProductEnabled(
        deps.db,
        repository,
        req.product as ProductName,
        req.enabled,
        () =>
          internalEventRow({
            type: req.enabled ? "product.enabled" : "product.disabled",
            repository,
            pullRequest: null,
            baseRef: null,
            trigger: "API",
            receivedAt: null,
            metadata: req.enabled
              ? { product: req.product, enabled_by: actor, enabled_at: at, enabled_by_staff: false }
              : { product: req.product, disabled_by: actor, disabled_at: at, disabled_by_staff: false },
          }),
        (client) =>
          deps.productChanged?.(client as PoolClient, repository, req.product as ProductName, req.enabled) ??
          Promise.resolve(),
      );
      if (changed) deps.eventsWritten();
      return { changed };
    },
    async listProducts(req) {
      const states = await productStates(deps.db, `${req.owner}/${req.repository}`);
      return { products: Object.entries(states).map(([product, enabled]) => ({ product, enabled })) };
    },
  };
}
