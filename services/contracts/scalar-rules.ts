/**
 * Checks of one string or integer value against a compiled FieldRule (common.proto FieldRule):
 * lengths, pattern, allowed values, named formats, integer bounds, and the one character no string
 * may hold (U+0000: PostgreSQL text cannot store it, docs/errors.md). Shared by the JSON checker
 * (event metadata, request bodies) and the decoded-message checker (every request).
 */
import type { CompiledRule } from "./field-rule.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const HEX_COLOR = /^[0-9a-fA-F]{6}$/;

/** Whether a text is a UUID (8-4-4-4-12 hex digits, any version). */
export function isUuid(text: string): boolean {
  return UUID.test(text);
}

/** Describes what is wrong with a string value, or returns undefined when it follows the rule. */
export function checkString(value: string, { rule, pattern, oneOf }: CompiledRule): string | undefined {
  if (value.includes("\u0000")) return "must not contain the NUL character (U+0000)";
  if (rule.required && value === "") return "is required";
  if (rule.minLen > 0 && value.length < rule.minLen)
    return `must be at least ${rule.minLen} character${rule.minLen === 1 ? "" : "s"} long`;
  if (rule.maxLen > 0 && value.length > rule.maxLen) return `must be at most ${rule.maxLen} characters long`;
  if (pattern && !pattern.test(value)) return `must match the pattern ${rule.pattern}`;
  if (oneOf && !oneOf.has(value)) return `must be one of ${[...oneOf].join(", ")}`;
  switch (rule.format) {
    case "uuid":
      if (!UUID.test(value)) return "must be a UUID";
      break;
    case "date":
      if (!DATE.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) return "must be a date YYYY-MM-DD";
      break;
    case "hex-color":
      if (!HEX_COLOR.test(value)) return "must be 6 hexadecimal digits without #";
      break;
  }
  return undefined;
}

/** Describes what is wrong with an integer value against the rule's bounds, or returns undefined. */
export function checkInteger(value: bigint, { rule }: CompiledRule): string | undefined {
  if (rule.hasMin && rule.hasMax && (value < rule.min || value > rule.max))
    return `must be between ${rule.min} and ${rule.max}`;
  if (rule.hasMin && value < rule.min) return `must be at least ${rule.min}`;
  if (rule.hasMax && value > rule.max) return `must be at most ${rule.max}`;
  return undefined;
}

/** Describes what is wrong with the number of elements of a repeated field, or returns undefined. */
export function checkCount(count: number, { rule }: CompiledRule): string | undefined {
  if (rule.maxItems > 0 && count > rule.maxItems) return `must hold at most ${rule.maxItems} values, not ${count}`;
  return undefined;
}
