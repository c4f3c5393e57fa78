/**
 * The configuration of a repository as the runner uses it: the file on the default branch
 * (`.yardmaster.yml`, then `.github/yardmaster.yml`), loaded with the configuration module
 * (services/config) and kept in PostgreSQL (`repository_configurations`), with an
 * in-process cache keyed by the file's SHA. A repository without a file gets the default
 * configuration: one queue rule named "default" with every default filled (docs/merge-queue.md).
 * A large file is loaded off the event loop, within the limits of docs/configuration.md "Limits",
 * in the runner's own worker threads (docs/reliability.md "Tenants": API requests never delay it),
 * or in the API's when an API request asks; a file stopped by the time or memory limit is not
 * cached (it may load when the machine is less busy). The file its `extends` names is read with
 * the service's access; a repository that does not exist reads as one without a file, so the
 * errors never say which repositories exist (docs/configuration.md "extends").
 */
import { createHash } from "node:crypto";
import { isForgeError, type ForgePort } from "../forge/index.js";
import { loadConfigurationBounded, type WorkOrigin } from "../offload/index.js";
import { loadConfiguration, type ConfigError, type Configuration } from "../config/index.js";
import { getStoredConfig, putStoredConfig, type Queryable } from "../store/index.js";
import type { ConfigurationInput } from "../engine/index.js";

/** The configuration used when a repository has no configuration file. */
export const DEFAULT_CONFIGURATION_TEXT = "queue_rules:\n  - name: default\n";

/**
 * A repository's loaded configuration as the runner uses it (see the file header), with where it
 * came from and the errors of an invalid file.
 */
export interface RepositoryConfig {
  /** The effective configuration, or the default one when the file is missing or invalid. */
  config: Configuration;
  /** Where it came from: the file's path, or null for the default. */
  path: string | null;
  /** SHA-256 of the text loaded (the default's when no file). */
  textSha: string;
  /** Errors of the stored file when it is invalid (the last valid configuration is not kept: the default is used). */
  errors: ConfigError[] | null;
  /** The repository ("owner/name") whose configuration the file's `extends` read, or null. */
  extended: string | null;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const cache = new Map<string, RepositoryConfig>();

/** The text of `owner/other`'s configuration file, null when it has none or does not exist. */
async function extendedText(forge: ForgePort, repository: string): Promise<string | null> {
  try {
    return (await forge.readConfigFile(repository))?.text ?? null;
  } catch (e) {
    if (isForgeError(e, "not_found")) return null;
    throw e;
  }
}

async function load(
  forge: ForgePort,
  repository: string,
  path: string | null,
  text: string | null,
  origin: WorkOrigin,
): Promise<RepositoryConfig> {
  const used = text ?? DEFAULT_CONFIGURATION_TEXT;
  const textSha = sha256(used);
  const key = `${repository}\u0000${textSha}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const [owner, name] = repository.split("/");
  let extended: string | null = null;
  const options = {
    repositoryName: name,
    loadExtended: (other: string) => extendedText(forge, (extended = `${owner}/${other}`)),
  };
  const result = await loadConfigurationBounded(used, options, origin);
  let out: RepositoryConfig;
  if (result.ok) out = { config: result.config, path, textSha, errors: null, extended };
  else {
    const fallback = await loadConfiguration(DEFAULT_CONFIGURATION_TEXT);
    if (!fallback.ok) throw new Error("the default configuration does not load");
    out = { config: fallback.config, path, textSha, errors: result.errors, extended };
  }
  if (!result.ok && result.transient) return out;
  cache.set(key, out);
  if (cache.size > 1000) cache.delete(cache.keys().next().value!);
  return out;
}

/**
 * The repository's configuration, loaded in the runner's lane. `refresh` reads the file from the
 * forge again (after a push to the default branch); otherwise the text stored in PostgreSQL is
 * used when there is one.
 * @throws PoolBusyError when the runner's worker threads are busy (transient: retry shortly)
 */
export async function repositoryConfig(
  deps: { forge: ForgePort; db: Queryable },
  repository: string,
  refresh = false,
): Promise<RepositoryConfig> {
  const origin: WorkOrigin = { lane: "runner", repository };
  if (!refresh) {
    const stored = await getStoredConfig(deps.db, repository);
    if (stored) return load(deps.forge, repository, stored.path, stored.text, origin);
  }
  const file = await deps.forge.readConfigFile(repository);
  await putStoredConfig(deps.db, repository, {
    path: file?.path ?? null,
    text: file?.text ?? null,
    textSha: file ? sha256(file.text) : null,
  });
  return load(deps.forge, repository, file?.path ?? null, file?.text ?? null, origin);
}

/**
 * The configuration the queue runs with, from the text stored in PostgreSQL (the default when the
 * repository has no file or was not read yet), without reading the forge: for the QueueService's
 * reads. Loaded once per text (the same cache as the runner's), as the task of API `caller` (auth's
 * `callerKey`: its share of the API's worker threads), or in the lane `caller` names (reconciliation:
 * the runner's).
 * @throws PoolBusyError when the caller is over its share of the API's worker threads
 */
export async function storedRepositoryConfig(
  deps: { forge: ForgePort; db: Queryable },
  repository: string,
  caller: string | WorkOrigin,
): Promise<RepositoryConfig> {
  const stored = await getStoredConfig(deps.db, repository);
  const origin: WorkOrigin = typeof caller === "string" ? { lane: "api", caller } : caller;
  return load(deps.forge, repository, stored?.path ?? null, stored?.text ?? null, origin);
}

/** The sections the engine keeps (engine/config.ts). */
export function engineConfigurationInput(config: Configuration): ConfigurationInput {
  return {
    queue_rules: config.queue_rules,
    merge_queue: config.merge_queue,
    priority_rules: config.priority_rules,
    scopes: config.scopes,
    partition_rules: config.partition_rules,
  };
}
