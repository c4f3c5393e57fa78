/**
 * `extends`: a configuration may start from the configuration of another repository of the same
 * owner, one level only (docs/domain.md §1.1, docs/configuration.md "extends"). Merging:
 *
 * - `defaults`, `commands_restrictions`, `merge_queue`, `merge_protections_settings`: key by key,
 *   the local value wins (`defaults.actions` is merged action by action, option by option);
 * - `pull_request_rules`, `queue_rules`, `priority_rules`, `merge_protections`: by rule name, a
 *   local rule replaces the extended rule of the same name in place; other local rules follow the
 *   extended ones, in their own order;
 * - any other section (`scopes`, `partition_rules`): the local one if present, else the extended;
 * - `shared` is never merged (anchors only live in their own file).
 */
import type { RawConfiguration } from "../schema/root.js";

type Named = { name: string };

function byName<T extends Named>(
  base: readonly T[] | null | undefined,
  local: readonly T[] | null | undefined,
): T[] | undefined {
  if (!base && !local) return undefined;
  const localRules = local ?? [];
  const localNames = new Set(localRules.map((r) => r.name));
  const replaced = (base ?? []).map((r) => (localNames.has(r.name) ? localRules.find((l) => l.name === r.name)! : r));
  const baseNames = new Set((base ?? []).map((r) => r.name));
  return [...replaced, ...localRules.filter((r) => !baseNames.has(r.name))];
}

function keyWise<T extends object>(base: T | null | undefined, local: T | null | undefined): T | undefined {
  if (!base && !local) return undefined;
  const out: Record<string, unknown> = { ...(base ?? {}) };
  for (const [k, v] of Object.entries(local ?? {})) if (v !== undefined) out[k] = v;
  return out as T;
}

function mergeDefaults(
  base: RawConfiguration["defaults"],
  local: RawConfiguration["defaults"],
): RawConfiguration["defaults"] {
  if (!base && !local) return undefined;
  const actions: Record<string, Record<string, unknown>> = { ...(base?.actions ?? {}) };
  for (const [name, options] of Object.entries(local?.actions ?? {}))
    actions[name] = keyWise(actions[name], options) ?? {};
  return {
    actions: base?.actions || local?.actions ? actions : undefined,
    queue_rule: keyWise(base?.queue_rule, local?.queue_rule) ?? undefined,
  };
}

/**
 * The local configuration merged over the extended one. Both must be validated already; the
 * result keeps the local `extends` value and the local `shared` only.
 */
export function mergeExtended(base: RawConfiguration, local: RawConfiguration): RawConfiguration {
  return {
    $schema: local.$schema,
    extends: local.extends,
    shared: local.shared,
    defaults: mergeDefaults(base.defaults, local.defaults),
    queue_rules: byName(base.queue_rules, local.queue_rules),
    merge_queue: keyWise(base.merge_queue, local.merge_queue),
    priority_rules: byName(base.priority_rules, local.priority_rules),
    scopes: local.scopes ?? base.scopes,
    partition_rules: local.partition_rules ?? base.partition_rules,
    pull_request_rules: byName(base.pull_request_rules, local.pull_request_rules),
    commands_restrictions: keyWise(base.commands_restrictions, local.commands_restrictions),
    merge_protections: byName(base.merge_protections, local.merge_protections),
    merge_protections_settings: keyWise(base.merge_protections_settings, local.merge_protections_settings),
  };
}
