/**
 * `yardmaster product list|enable|disable owner/name [PRODUCT]`: which products are enabled on a
 * repository (ProductService; the configuration simulator's unused_sections). docs/configuration.md "Products and unused sections".
 */
import type { Command } from "commander";
import { ProductService } from "../../../gen/yardmaster/v1/admin_pb.js";
import { serviceClient } from "../rpc-client.js";
import { readSettings } from "../settings.js";
import { out } from "./output.js";
import { parseRepoArgument } from "./repo.js";

/**
 * Adds `product list|enable|disable` to the CLI; each subcommand calls the running service's
 * ProductService as an admin (YARDMASTER_ADMIN_KEY or the data directory's key file) and fails
 * when there is no admin key or the RPC fails.
 */
export function registerProduct(program: Command): void {
  const product = program
    .command("product")
    .description("products enabled on a repository (merge_queue, workflow_automation, merge_protections, ci_insights)");
  product
    .command("list")
    .argument("<repository>", "owner/name", parseRepoArgument)
    .description("show each product and whether it is enabled")
    .action(async (repository: { owner: string; repository: string }) => {
      const client = await serviceClient(ProductService, readSettings());
      const res = await client.listProducts(repository);
      for (const p of res.products) out(`${p.product.padEnd(20)} ${p.enabled ? "enabled" : "disabled"}`);
    });
  for (const [verb, enabled] of [
    ["enable", true],
    ["disable", false],
  ] as const) {
    product
      .command(verb)
      .argument("<repository>", "owner/name", parseRepoArgument)
      .argument("<product>", "merge_queue, workflow_automation, merge_protections or ci_insights")
      .description(`${verb} a product on a repository`)
      .action(async (repository: { owner: string; repository: string }, name: string) => {
        const client = await serviceClient(ProductService, readSettings());
        const res = await client.setProductEnabled({ ...repository, product: name, enabled });
        const full = `${repository.owner}/${repository.repository}`;
        out(
          res.changed
            ? `${name} ${enabled ? "enabled" : "disabled"} on ${full}`
            : `${name} was already ${enabled ? "enabled" : "disabled"} on ${full}`,
        );
      });
  }
}
