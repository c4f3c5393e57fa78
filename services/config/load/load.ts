/**
 * Loading a configuration text (docs/configuration.md): YAML -> schema validation -> `extends`
 * -> effective configuration with defaults, reporting every error (not only the first) with its
 * path, line and column, and every deprecated key or attribute used.
 */
import { findDeprecations } from "../deprecations.js";
import type { ConfigError, Configuration, DeprecationFinding } from "../model.js";
import { describeValue } from "../schema/common.js";
import { configurationFile, type RawConfiguration, SECTIONS } from "../schema/root.js";
import { buildConfiguration } from "./effective.js";
import { mergeExtended } from "./extends.js";
import { formatConfigError, toConfigErrors } from "./issues.js";
import { byteLength, capErrors, MAX_CONFIGURATION_BYTES, MAX_REPORTED_DEPRECATIONS, tooLarge } from "./limits.js";
import { readYaml, type YamlSource } from "./yaml-source.js";

/** Options of {@link loadConfiguration}. */
export interface LoadOptions {
  /**
   * Reads the configuration text of another repository of the same owner, by its name without
   * the owner (`extends: .github`); resolves null when that repository has no configuration.
   * Without it, a file that uses `extends` is refused.
   */
  loadExtended?: (repositoryName: string) => Promise<string | null>;
  /** This repository's name without owner, so that a file cannot extend its own repository. */
  repositoryName?: string;
}

/** Result of {@link loadConfiguration}: never both a configuration and errors. */
export type LoadResult =
  | { ok: true; config: Configuration; deprecations: DeprecationFinding[] }
  | { ok: false; errors: ConfigError[]; deprecations: DeprecationFinding[] };

/** Errors in document order (line, then column); errors without a position last. */
function inDocumentOrder(errors: ConfigError[]): ConfigError[] {
  const key = (e: ConfigError) => (e.line === null ? Number.MAX_SAFE_INTEGER : e.line * 100_000 + (e.column ?? 0));
  return [...errors].sort((a, b) => key(a) - key(b));
}

type Parsed = {
  source: YamlSource;
  value: Record<string, unknown>;
  raw: RawConfiguration | null;
  errors: ConfigError[];
};

function parseFile(text: string): Parsed {
  const source = readYaml(text);
  if (source.errors.length > 0) return { source, value: {}, raw: null, errors: source.errors };
  const value = source.value ?? {};
  if (typeof value !== "object" || Array.isArray(value)) {
    const at = source.locate([]);
    return {
      source,
      value: {},
      raw: null,
      errors: [
        {
          path: [],
          line: at?.line ?? 1,
          column: at?.column ?? 1,
          message: `expected a mapping of sections (queue_rules, pull_request_rules, ...) at the top level, got ${describeValue(value)}`,
        },
      ],
    };
  }
  const parsed = configurationFile.safeParse(value, { reportInput: true });
  if (!parsed.success)
    return {
      source,
      value: value as Record<string, unknown>,
      raw: null,
      errors: toConfigErrors(parsed.error.issues, source),
    };
  return { source, value: value as Record<string, unknown>, raw: parsed.data, errors: [] };
}

function at(source: YamlSource, path: (string | number)[], message: string): ConfigError {
  const p = source.locate(path);
  return { path, line: p?.line ?? null, column: p?.column ?? null, message };
}

async function resolveExtends(
  local: Parsed,
  name: string,
  options: LoadOptions,
): Promise<{ raw: RawConfiguration | null; errors: ConfigError[] }> {
  const fail = (message: string) => ({ raw: null, errors: [at(local.source, ["extends"], message)] });
  if (name.includes("/"))
    return fail(`expected the name of a repository of the same owner, without "owner/", got "${name}"`);
  if (options.repositoryName !== undefined && name.toLowerCase() === options.repositoryName.toLowerCase())
    return fail("a configuration cannot extend its own repository");
  if (options.loadExtended === undefined)
    return fail(`the configuration extends repository "${name}", but other repositories cannot be read here`);
  let text: string | null;
  try {
    text = await options.loadExtended(name);
  } catch (e) {
    return fail(`could not read the configuration of repository "${name}": ${(e as Error).message}`);
  }
  if (text === null) return fail(`repository "${name}" has no configuration file to extend`);
  const bytes = byteLength(text);
  if (bytes > MAX_CONFIGURATION_BYTES)
    return fail(`the configuration of repository "${name}" is invalid: ${tooLarge(bytes).message}`);
  const other = parseFile(text);
  if (other.errors.length > 0) {
    const where = at(local.source, ["extends"], "");
    const errors = inDocumentOrder(other.errors).map((e) => ({
      ...where,
      message: `the configuration of repository "${name}" is invalid: ${formatConfigError(e)}`,
    }));
    return { raw: null, errors };
  }
  if (other.raw?.extends)
    return fail(`extends is limited to one level: repository "${name}" itself extends "${other.raw.extends}"`);
  return { raw: other.raw, errors: [] };
}

/**
 * Loads a configuration text, in the calling thread: a text of 1 MiB takes about a second, so a
 * server loads large texts in its worker pool (services/offload).
 * @param text the YAML text (an empty text is an empty configuration; over
 *   MAX_CONFIGURATION_BYTES (1 MiB of UTF-8), or over another limit of limits.ts, an error)
 * @returns the effective configuration and deprecations, or the errors found (in document order,
 *   the first MAX_REPORTED_ERRORS and one counting the rest) and the deprecations seen (at most
 *   MAX_REPORTED_DEPRECATIONS). Never throws for bad input; a throwing `loadExtended` becomes an error.
 */
export async function loadConfiguration(text: string, options: LoadOptions = {}): Promise<LoadResult> {
  const bytes = byteLength(text);
  if (bytes > MAX_CONFIGURATION_BYTES) return { ok: false, errors: [tooLarge(bytes)], deprecations: [] };
  const local = parseFile(text);
  const found =
    local.errors.length > 0 && local.raw === null && Object.keys(local.value).length === 0
      ? []
      : findDeprecations(local.value);
  const deprecations = found.slice(0, MAX_REPORTED_DEPRECATIONS);
  if (local.raw === null) return { ok: false, errors: capErrors(inDocumentOrder(local.errors)), deprecations };
  let raw = local.raw;
  if (raw.extends) {
    const extended = await resolveExtends(local, raw.extends, options);
    if (extended.raw === null) return { ok: false, errors: capErrors(extended.errors), deprecations };
    raw = mergeExtended(extended.raw, raw);
  }
  const present = Object.keys(local.value).filter((k) => (SECTIONS as readonly string[]).includes(k));
  const { config, issues } = buildConfiguration(raw, present);
  if (issues.length > 0)
    return {
      ok: false,
      errors: capErrors(inDocumentOrder(issues.map((i) => at(local.source, i.path, i.message)))),
      deprecations,
    };
  return { ok: true, config, deprecations };
}
