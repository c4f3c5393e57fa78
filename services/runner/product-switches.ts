/**
 * What the runner does when a product is switched on or off on a repository (docs/configuration.md
 * "Products"; the ProductService writes the switch, its `product.enabled` / `product.disabled`
 * event and this input in one transaction). Between switches, each product's own code asks
 * `env.products` before acting: the queue's entry (enqueue.ts), the rules' actions
 * (rule-actions/decide.ts), the protections (merge-protections/).
 *
 * - merge_queue off: every queued pull request leaves (PR_DEQUEUED); queue commands are answered
 *   that the queue is disabled. On: pull requests enter again by the usual ways.
 * - workflow_automation off: no rule acts (the rules' last verdicts are kept). On: the rules are
 *   evaluated on every open pull request, so what became true meanwhile acts now, once.
 * - merge_protections off: nothing holds the queue any more and no check is posted. On: every open
 *   pull request is evaluated and gets its check.
 * - ci_insights: nothing here (its uploads ask isProductEnabled).
 */
import type { IngressEnv } from "./ingress-env.js";
import { runProtectionsOnAll } from "./merge-protections/trigger.js";
import { runPullRulesOnAll } from "./rule-actions/trigger.js";

/**
 * Applies a switch of `product` to `enabled` (as the store has it now: `env.products`).
 * @throws ForgeError when the forge cannot be read (the input is retried)
 */
export async function onProductSwitched(env: IngressEnv, product: string, enabled: boolean): Promise<void> {
  env.logger.info(
    { repository: env.repository, product, enabled },
    `product ${product} ${enabled ? "enabled" : "disabled"}`,
  );
  if (env.products[product as keyof IngressEnv["products"]] !== enabled) return; // switched back meanwhile: a later input follows
  switch (product) {
    case "merge_queue":
      if (!enabled) env.emit({ type: "merge_queue_disabled", trigger: "Product: merge_queue disabled" });
      return;
    case "workflow_automation":
      if (enabled) await runPullRulesOnAll(env);
      return;
    case "merge_protections":
      await runProtectionsOnAll(env);
      return;
  }
}
