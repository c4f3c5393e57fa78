/**
 * Configuration texts loaded for the SimulatorService: the caller's text, whose `extends` reads
 * only repositories the caller's credential reaches (docs/auth.md), and the configuration the
 * queue runs with for a repository (for the what-if, docs/what-if.md).
 */
import type { HandlerContext } from "@connectrpc/connect";
import type { ClickHouseClient } from "../activity-log/index.js";
import { callerKey, canReadRepository, extendsDeniedMessage, principalKey } from "../auth/index.js";
import { formatConfigError, type Configuration, type DeprecationFinding } from "../config/index.js";
import { DomainError, InvalidArgumentError } from "../contracts/index.js";
import { isForgeError, type ForgePort } from "../forge/index.js";
import { loadConfigurationBounded } from "../offload/index.js";
import { getStoredConfig, type Pool } from "../store/index.js";
import type { ConfigurationText } from "./configuration-text.js";

/**
 * What the SimulatorService needs: the PostgreSQL pool (product states, the stored configuration),
 * the forge port (pull requests, `extends` files), the activity log's ClickHouse (recorded
 * traffic; absent in a process without access to it) and the clock (epoch milliseconds UTC;
 * default `Date.now`).
 */
export interface SimulatorDeps {
  db: Pool;
  forge: ForgePort;
  clickhouse?: ClickHouseClient;
  now?: () => number;
}

/**
 * The one answer to `extends` naming a repository the caller's credential does not reach: the
 * same whether that repository exists or not, and before anything of it is read (docs/auth.md).
 */
function extendsDenied(owner: string, name: string): DomainError {
  return new DomainError("permission_denied", extendsDeniedMessage(`${owner}/${name}`));
}

/** The key of the caller's share of the API's worker threads (docs/reliability.md "Tenants"). */
export function callerOf(ctx: HandlerContext | undefined): string {
  return callerKey(ctx?.values.get(principalKey));
}

/**
 * Loads a text for a repository on behalf of the caller; errors name `field` (`service_yml`, or
 * `mergify_yml` when the text came under that name).
 * @throws InvalidArgumentError (422) listing the errors; DomainError permission_denied when
 *   `extends` names a repository the caller's credential does not reach; PoolBusyError (429 or
 *   503 with Retry-After) when the caller is over its share of the API's worker threads
 */
export async function validate(
  deps: SimulatorDeps,
  ctx: HandlerContext,
  owner: string,
  repository: string,
  { text, field }: ConfigurationText,
): Promise<{ config: Configuration; deprecations: DeprecationFinding[] }> {
  // No principal (a call made in-process, not through the gateway) reads no other repository.
  const principal = ctx?.values.get(principalKey);
  let denied: string | null = null;
  const options = {
    repositoryName: repository,
    loadExtended: async (other: string) => {
      if (principal === undefined || !(await canReadRepository(principal, `${owner}/${other}`))) {
        denied = other;
        return null;
      }
      try {
        return (await deps.forge.readConfigFile(`${owner}/${other}`))?.text ?? null;
      } catch (e) {
        if (isForgeError(e, "not_found")) return null;
        throw e;
      }
    },
  };
  const loaded = await loadConfigurationBounded(text, options, { lane: "api", caller: callerKey(principal) });
  if (denied !== null) throw extendsDenied(owner, denied);
  if (!loaded.ok)
    throw new InvalidArgumentError(loaded.errors.map((e) => ({ field, description: formatConfigError(e) })));
  return { config: loaded.config, deprecations: loaded.deprecations };
}

/** The text the queue runs with when a repository has no configuration file (runner/repository-config.ts). */
const DEFAULT_CONFIGURATION_TEXT = "queue_rules:\n  - name: default\n";

/**
 * The configuration the queue of `owner/repository` runs with: the text the runner stored in
 * PostgreSQL, else the file on the default branch, else the default; a text that no longer
 * loads gives the default, as the runner does. Its `extends` are read as the runner reads them.
 * Loaded as the task of API `caller` (its share of the worker threads).
 */
export async function runningConfiguration(
  deps: SimulatorDeps,
  owner: string,
  repository: string,
  caller: string,
): Promise<Configuration> {
  const repo = `${owner}/${repository}`;
  const stored = await getStoredConfig(deps.db, repo);
  const text = stored ? stored.text : ((await deps.forge.readConfigFile(repo))?.text ?? null);
  const options = {
    repositoryName: repository,
    loadExtended: async (other: string) => (await deps.forge.readConfigFile(`${owner}/${other}`))?.text ?? null,
  };
  const origin = { lane: "api", caller } as const;
  const loaded = await loadConfigurationBounded(text ?? DEFAULT_CONFIGURATION_TEXT, options, origin);
  if (loaded.ok) return loaded.config;
  const fallback = await loadConfigurationBounded(DEFAULT_CONFIGURATION_TEXT, {}, origin);
  if (!fallback.ok) throw new Error("the default configuration does not load");
  return fallback.config;
}
