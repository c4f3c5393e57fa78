/**
 * The effective `scopes` section (docs/configuration.md "Keys and defaults"): the
 * declared scopes, barrier files and capacities with their defaults filled.
 */
import type { ScopesConfig } from "../model.js";
import type { RawConfiguration } from "../schema/root.js";
import { SCOPES_DEFAULTS } from "./defaults.js";
import type { SemanticIssue } from "./semantic-issue.js";

/**
 * The effective `scopes` section. With scopes declared by files, a capacity must name one of
 * them (a typo would otherwise go unnoticed); with manual scopes any name may come.
 */
export function scopesConfig(raw: RawConfiguration["scopes"], issues: SemanticIssue[]): ScopesConfig | null {
  if (raw === null || raw === undefined) return null;
  if (raw.source && "files" in raw.source) {
    const declared = Object.keys(raw.source.files);
    for (const name of Object.keys(raw.capacities ?? {})) {
      if (!declared.includes(name))
        issues.push({
          path: ["scopes", "capacities", name],
          message: `unknown scope "${name}" (scopes of source.files: ${declared.join(", ")})`,
        });
    }
  }
  let source: ScopesConfig["source"] = null;
  if (raw.source && "files" in raw.source) {
    source = {
      type: "files",
      scopes: Object.fromEntries(
        Object.entries(raw.source.files).map(([k, v]) => [k, { include: v.include ?? [], exclude: v.exclude ?? [] }]),
      ),
    };
  } else if (raw.source && "manual" in raw.source) source = { type: "manual" };
  return {
    source,
    barrier_files: raw.barrier_files
      ? { include: raw.barrier_files.include, exclude: raw.barrier_files.exclude ?? [] }
      : null,
    merge_queue_scope: raw.merge_queue_scope ?? SCOPES_DEFAULTS.merge_queue_scope,
    capacities: { ...(raw.capacities ?? {}) },
    default_capacity: raw.default_capacity ?? SCOPES_DEFAULTS.default_capacity,
  };
}
