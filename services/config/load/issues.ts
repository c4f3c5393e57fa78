/**
 * Turns schema validation issues into configuration errors users can act on
 * (docs/configuration.md "Errors"): each error names its path (`queue_rules → item 0 →
 * batch_size`), its line and column, what was found and what is expected. Unknown keys suggest
 * the closest known key, removed keys say what replaced them.
 */
import type { z } from "zod";
import type { ConfigError } from "../model.js";
import { describeValue } from "../schema/common.js";
import { ACTION_SCHEMAS } from "../schema/actions.js";
import { RESTRICTABLE_COMMANDS } from "../schema/commands-restrictions.js";
import { mergeProtectionsSettings } from "../schema/merge-protections.js";
import { mergeQueue } from "../schema/merge-queue.js";
import { priorityRule } from "../schema/priority-rules.js";
import { queueRuleFields } from "../schema/queue-rules.js";
import { SECTIONS } from "../schema/root.js";
import { scopes } from "../schema/scopes.js";
import { didYouMean } from "../suggest.js";
import { removedKeyHint } from "./removed-keys.js";
import type { YamlSource } from "./yaml-source.js";

type Path = (string | number)[];

/** `queue_rules → item 0 → batch_size` (docs/domain.md §4.1 error format). */
export function formatPath(path: readonly (string | number)[]): string {
  return path.map((p) => (typeof p === "number" ? `item ${p}` : p)).join(" → ");
}

/** `<message> @ <path> (line L, column C)`: one line per error for logs and API messages. */
export function formatConfigError(e: ConfigError): string {
  const where = e.path.length > 0 ? ` @ ${formatPath(e.path)}` : "";
  const at = e.line !== null ? ` (line ${e.line}, column ${e.column})` : "";
  return `${e.message}${where}${at}`;
}

function keysOf(schema: unknown): string[] {
  return Object.keys((schema as { shape?: Record<string, unknown> }).shape ?? {});
}

/** The keys allowed in the object at `path`, for "did you mean" suggestions. */
function knownKeys(path: Path): string[] {
  const p = path.map((s) => (typeof s === "number" ? "*" : s)).join(".");
  if (p === "") return [...SECTIONS];
  if (p === "queue_rules.*") return ["name", ...Object.keys(queueRuleFields)];
  if (p === "defaults.queue_rule") return Object.keys(queueRuleFields);
  if (p === "defaults") return ["actions", "queue_rule"];
  if (p === "merge_queue") return keysOf(mergeQueue);
  if (p === "priority_rules.*" || p === "queue_rules.*.priority_rules.*") return keysOf(priorityRule);
  if (p === "scopes") return keysOf(scopes);
  if (p === "partition_rules.*") return ["name", "conditions", "fallback_partition"];
  if (p === "pull_request_rules.*") return ["name", "description", "disabled", "conditions", "actions"];
  if (p === "commands_restrictions") return [...RESTRICTABLE_COMMANDS];
  if (p === "merge_protections.*") return ["name", "description", "if", "success_conditions"];
  if (p === "merge_protections_settings") return keysOf(mergeProtectionsSettings);
  const action = /^(?:pull_request_rules\.\*\.actions|defaults\.actions)\.(\w+)$/.exec(p);
  if (action !== null) return keysOf((ACTION_SCHEMAS as Record<string, unknown>)[action[1]]);
  return [];
}

const NOUNS: Record<string, string> = {
  string: "a text",
  number: "a number",
  int: "an integer",
  boolean: "true or false",
  object: "an object",
  array: "a list",
  null: "nothing (null)",
};

function rangeMessage(
  issue: z.core.$ZodIssue & { origin?: string; minimum?: unknown; maximum?: unknown; input?: unknown },
  small: boolean,
): string {
  const bound = small ? issue.minimum : issue.maximum;
  if (issue.origin === "array")
    return `expected ${small ? "at least" : "at most"} ${String(bound)} items, got ${Array.isArray(issue.input) ? issue.input.length : "more"}`;
  if (issue.origin === "string")
    return small && bound === 1
      ? "expected a non-empty text"
      : `expected a text of ${small ? "at least" : "at most"} ${String(bound)} characters`;
  return `expected ${small ? "at least" : "at most"} ${String(bound)}, got ${describeValue(issue.input)}`;
}

function flatten(
  issues: readonly z.core.$ZodIssue[],
  base: Path,
  out: { path: Path; message: string; key?: boolean }[],
): void {
  for (const issue of issues) {
    const path = [...base, ...(issue.path as Path)];
    const input = (issue as { input?: unknown }).input;
    switch (issue.code) {
      case "invalid_type":
        if (input === undefined) out.push({ path, message: `missing required key "${String(path[path.length - 1])}"` });
        else
          out.push({
            path,
            message: `expected ${NOUNS[issue.expected] ?? issue.expected}, got ${describeValue(input)}`,
          });
        break;
      case "too_small":
        out.push({ path, message: rangeMessage(issue, true) });
        break;
      case "too_big":
        out.push({ path, message: rangeMessage(issue, false) });
        break;
      case "invalid_value":
        out.push({
          path,
          message: `expected ${issue.values.length === 1 ? JSON.stringify(issue.values[0]) : `one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`}, got ${describeValue(input)}`,
        });
        break;
      case "unrecognized_keys":
        for (const key of issue.keys) {
          const removed = removedKeyHint(path, key, (input as Record<string, unknown> | undefined)?.[key]);
          const known = knownKeys(path);
          const hint =
            didYouMean(key, known) ||
            (known.length > 0 && known.length <= 12 ? `; expected one of ${known.join(", ")}` : "");
          out.push({ path: [...path, key], key: true, message: removed ?? `unknown key "${key}"${hint}` });
        }
        break;
      case "invalid_union": {
        // Report the branch that got furthest (an object with a wrong field) rather than "invalid input".
        const deep = issue.errors.filter((branch) =>
          branch.some((i) => i.path.length > 0 || i.code === "unrecognized_keys"),
        );
        // Among object shapes (`source: {files: ...} | {manual: null}`), the one whose keys the
        // author wrote: a branch that refused the keys at its root is another shape.
        const recognised = deep.filter(
          (branch) => !branch.some((i) => i.code === "unrecognized_keys" && i.path.length === 0),
        );
        if (recognised.length === 1) flatten(recognised[0], path, out);
        else if (deep.length === 1) flatten(deep[0], path, out);
        else {
          const expected = [
            ...new Set(
              issue.errors.flatMap((b) =>
                b
                  .filter((i) => i.code === "invalid_type")
                  .map((i) => NOUNS[(i as { expected: string }).expected] ?? (i as { expected: string }).expected),
              ),
            ),
          ];
          out.push({
            path,
            message:
              expected.length > 0
                ? `expected ${expected.join(" or ")}, got ${describeValue(input)}`
                : `invalid value ${describeValue(input)}`,
          });
        }
        break;
      }
      case "invalid_key": {
        const nested: typeof out = [];
        flatten(issue.issues, path, nested);
        out.push(...nested.map((n) => ({ ...n, key: true })));
        break;
      }
      case "invalid_element":
        flatten(issue.issues, path, out);
        break;
      default:
        out.push({ path, message: issue.message });
    }
  }
}

/** Configuration errors of a failed validation, each located in the YAML text. */
export function toConfigErrors(
  issues: readonly z.core.$ZodIssue[],
  source: YamlSource,
  base: Path = [],
): ConfigError[] {
  const flat: { path: Path; message: string; key?: boolean }[] = [];
  flatten(issues, base, flat);
  return flat.map((f) => {
    const at = source.locate(f.path, f.key);
    return { path: f.path, line: at?.line ?? null, column: at?.column ?? null, message: f.message };
  });
}
