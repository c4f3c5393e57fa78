/**
 * Sections of a configuration whose product is not enabled on the repository
 * (docs/api.md "Simulation results" `unused_sections`; ownership as docs/domain.md §1.1 infers
 * it, docs/configuration.md "Products and unused sections"). Sections no product owns (extends, shared, defaults,
 * commands_restrictions) are never reported.
 */
import { DOCS_BASE_URL } from "../docs-url.js";

/** The products a repository can enable. */
export type Product = "merge_queue" | "workflow_automation" | "merge_protections" | "ci_insights";

/** Display name and documentation page of each product. */
export const PRODUCTS: Readonly<Record<Product, { name: string; url: string }>> = {
  merge_queue: { name: "Merge Queue", url: `${DOCS_BASE_URL}/merge-queue/` },
  workflow_automation: { name: "Workflow Automation", url: `${DOCS_BASE_URL}/workflow-automation/` },
  merge_protections: { name: "Merge Protections", url: `${DOCS_BASE_URL}/merge-protections/` },
  ci_insights: { name: "CI Insights", url: `${DOCS_BASE_URL}/ci-insights/` },
};

/** The product owning each top-level section. */
export const SECTION_PRODUCTS: Readonly<Record<string, Product>> = {
  queue_rules: "merge_queue",
  merge_queue: "merge_queue",
  priority_rules: "merge_queue",
  scopes: "merge_queue",
  partition_rules: "merge_queue",
  pull_request_rules: "workflow_automation",
  merge_protections: "merge_protections",
  merge_protections_settings: "merge_protections",
};

/** One unused section, as the configuration simulator reports it. */
export interface UnusedSection {
  section: string;
  product: Product;
  product_name: string;
  product_url: string;
}

/**
 * The present sections whose product is not enabled, in the order given.
 * @param presentSections top-level keys of the file (Configuration.present_sections)
 * @param enabledProducts products enabled on the repository
 */
export function unusedSections(
  presentSections: readonly string[],
  enabledProducts: readonly Product[],
): UnusedSection[] {
  const enabled = new Set(enabledProducts);
  return presentSections.flatMap((section) => {
    const product = SECTION_PRODUCTS[section];
    if (product === undefined || enabled.has(product)) return [];
    return [{ section, product, product_name: PRODUCTS[product].name, product_url: PRODUCTS[product].url }];
  });
}
