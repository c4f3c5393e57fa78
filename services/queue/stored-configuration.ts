/**
 * The configuration the queue runs with, as QueueService reads answer it: the stored file, loaded
 * (once per text) as the caller's work, or, for a repository without one (or not read yet), the
 * default configuration the runner uses (docs/merge-queue.md, runner/repository-config.ts).
 *
 * The file's `extends` was read with the service's access (docs/configuration.md "extends"). When
 * the file does not load because of it, a caller whose credential does not reach the extended
 * repository gets the one answer a simulation gives it (docs/auth.md "extends"): PERMISSION_DENIED,
 * the same whether that repository exists, has a file or not, never its errors.
 */
import type { HandlerContext } from "@connectrpc/connect";
import { callerKey, canReadRepository, extendsDeniedMessage, principalKey } from "../auth/index.js";
import { formatConfigError, type Configuration } from "../config/index.js";
import { DomainError } from "../contracts/index.js";
import type { ForgePort } from "../forge/index.js";
import { storedRepositoryConfig } from "../runner/index.js";
import type { Pool } from "../store/index.js";

/**
 * The configuration of `repo` ("owner/name") for the caller of `ctx`.
 * @throws DomainError permission_denied when the file's `extends` fails and the caller does not
 *   reach the extended repository; failed_precondition (422) when the stored file is invalid
 *   (over 1 MiB included); PoolBusyError when the caller is over its share of the worker threads
 */
export async function storedConfiguration(
  deps: { forge: ForgePort; db: Pool },
  repo: string,
  ctx: HandlerContext,
): Promise<Configuration> {
  const principal = ctx.values.get(principalKey);
  const loaded = await storedRepositoryConfig(deps, repo, callerKey(principal));
  if (loaded.errors === null) return loaded.config;
  const extended = loaded.extended;
  if (extended !== null && loaded.errors.some((e) => e.path[0] === "extends")) {
    const reaches = principal !== undefined && (await canReadRepository(principal, extended));
    if (!reaches) throw new DomainError("permission_denied", extendsDeniedMessage(extended));
  }
  throw new DomainError(
    "failed_precondition",
    `the configuration file is invalid: ${loaded.errors.map(formatConfigError).join("; ")}`,
  );
}
