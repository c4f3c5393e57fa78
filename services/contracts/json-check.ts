/**
 * Checks a JSON value against a message descriptor before anything decodes or stores it, so every
 * problem is reported with its path ("events[2].metadata.queue_name: is required") instead of a
 * decoder's first complaint. Two presence modes:
 * - "proto3" (request bodies): absent and null fields are allowed, as in proto3 JSON; keys may be
 *   proto names or lowerCamel JSON names.
 * - "strict" (event metadata, docs/events.md "Event types"): every field is required and
 *   non-null unless its FieldRule says `omittable` / `nullable`; keys are proto names only.
 * In both modes unknown keys are refused and FieldRule value rules apply.
 */
import { ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { ruleOf } from "./field-rule.js";
import { checkCount, checkInteger, checkString, isUuid } from "./scalar-rules.js";
import { childPath, type FieldViolation } from "./violation.js";

/**
 * How checkJson treats absent and null fields and key names: "proto3" for request bodies, "strict"
 * for event metadata (see the file header).
 */
export type PresenceMode = "proto3" | "strict";

const RFC3339 =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,9}))?(?:Z|[+-][0-9]{2}:[0-9]{2})$/;
const INT_TEXT = /^-?(0|[1-9][0-9]*)$/;

/** Inclusive [min, max] of each integer scalar type. */
export const INT_RANGES: Readonly<Partial<Record<ScalarType, readonly [bigint, bigint]>>> = {
  [ScalarType.INT32]: [-(2n ** 31n), 2n ** 31n - 1n],
  [ScalarType.SINT32]: [-(2n ** 31n), 2n ** 31n - 1n],
  [ScalarType.SFIXED32]: [-(2n ** 31n), 2n ** 31n - 1n],
  [ScalarType.UINT32]: [0n, 2n ** 32n - 1n],
  [ScalarType.FIXED32]: [0n, 2n ** 32n - 1n],
  [ScalarType.INT64]: [-(2n ** 63n), 2n ** 63n - 1n],
  [ScalarType.SINT64]: [-(2n ** 63n), 2n ** 63n - 1n],
  [ScalarType.SFIXED64]: [-(2n ** 63n), 2n ** 63n - 1n],
  [ScalarType.UINT64]: [0n, 2n ** 64n - 1n],
  [ScalarType.FIXED64]: [0n, 2n ** 64n - 1n],
};

/** Earliest and latest instants a google.protobuf.Timestamp holds (0001-01-01 to 9999-12-31 UTC), ms. */
export const TIMESTAMP_RANGE_MS: readonly [number, number] = [-62_135_596_800_000, 253_402_300_799_999];

/**
 * Whether a text is an RFC 3339 date-time with `Z` or a `±hh:mm` offset that names a real
 * calendar instant (no 30 February: JavaScript's Date would roll it over to 2 March) within the
 * range of google.protobuf.Timestamp (0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z).
 */
export function isRfc3339(text: string): boolean {
  const m = RFC3339.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  if (hour > 23 || minute > 59 || second > 59) return false;
  const ms = Date.parse(text);
  return !Number.isNaN(ms) && ms >= TIMESTAMP_RANGE_MS[0] && ms <= TIMESTAMP_RANGE_MS[1];
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Returns every violation of `value` against `desc` (empty when it conforms).
 * @param path the path of `value` itself ("" for a request body, "events[0].metadata" for metadata)
 */
export function checkJson(desc: DescMessage, value: unknown, mode: PresenceMode, path = ""): FieldViolation[] {
  const out: FieldViolation[] = [];
  checkMessage(desc, value, mode, path, out);
  return out;
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : typeof v === "string" ? "a string" : typeof v;
}

function checkMessage(
  desc: DescMessage,
  value: unknown,
  mode: PresenceMode,
  path: string,
  out: FieldViolation[],
): void {
  if (wellKnown(desc, value, path, out)) return;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    out.push({ field: path || "body", description: `must be an object, not ${describe(value)}` });
    return;
  }
  const obj = value as Record<string, unknown>;
  const seen = new Set<string>();
  for (const field of desc.fields) {
    const key =
      field.name in obj ? field.name : mode === "proto3" && field.jsonName in obj ? field.jsonName : undefined;
    const fieldPath = childPath(path, field.name);
    const { rule } = ruleOf(field);
    if (key === undefined) {
      if (mode === "strict" && !rule.omittable) out.push({ field: fieldPath, description: "is required" });
      continue;
    }
    seen.add(key);
    const v = obj[key];
    if (v === null) {
      if (mode === "strict" && !rule.nullable) out.push({ field: fieldPath, description: "must not be null" });
      continue;
    }
    checkField(field, v, mode, fieldPath, out);
  }
  for (const key of Object.keys(obj)) {
    if (!seen.has(key))
      out.push({ field: childPath(path, key), description: `unknown field (not in ${desc.typeName})` });
  }
}

function checkField(field: DescField, v: unknown, mode: PresenceMode, path: string, out: FieldViolation[]): void {
  switch (field.fieldKind) {
    case "list": {
      if (!Array.isArray(v)) return void out.push({ field: path, description: `must be an array, not ${describe(v)}` });
      const tooMany = checkCount(v.length, ruleOf(field));
      if (tooMany) return void out.push({ field: path, description: tooMany });
      v.forEach((item, i) => {
        const itemPath = childPath(path, i);
        if (item === null) return void out.push({ field: itemPath, description: "must not be null" });
        if (field.listKind === "message") checkMessage(field.message, item, mode, itemPath, out);
        else if (field.listKind === "enum")
          checkEnum(
            field.enum.values.map((x) => x.name),
            item,
            itemPath,
            out,
          );
        else checkScalar(field, field.scalar, item, itemPath, out);
      });
      return;
    }
    case "map": {
      if (v === null || typeof v !== "object" || Array.isArray(v))
        return void out.push({ field: path, description: `must be an object, not ${describe(v)}` });
      for (const [k, item] of Object.entries(v as object)) {
        const itemPath = childPath(path, k);
        if (field.mapKind === "message") checkMessage(field.message, item, mode, itemPath, out);
        else if (field.mapKind === "enum")
          checkEnum(
            field.enum.values.map((x) => x.name),
            item,
            itemPath,
            out,
          );
        else checkScalar(field, field.scalar, item, itemPath, out);
      }
      return;
    }
    case "message":
      if (ruleOf(field).rule.integerOrUuid && !isIntegerOrUuid(v)) {
        return void out.push({ field: path, description: "must be an integer or a UUID string" });
      }
      return checkMessage(field.message, v, mode, path, out);
    case "enum":
      return checkEnum(
        field.enum.values.map((x) => x.name),
        v,
        path,
        out,
      );
    case "scalar":
      return checkScalar(field, field.scalar, v, path, out);
  }
}

function checkEnum(names: string[], v: unknown, path: string, out: FieldViolation[]): void {
  if (typeof v === "string" && names.includes(v) && !v.endsWith("UNSPECIFIED")) return;
  out.push({
    field: path,
    description: `must be one of ${names.filter((n) => !n.endsWith("UNSPECIFIED")).join(", ")}`,
  });
}

function checkScalar(field: DescField, scalar: ScalarType, v: unknown, path: string, out: FieldViolation[]): void {
  const compiled = ruleOf(field);
  switch (scalar) {
    case ScalarType.STRING: {
      if (typeof v !== "string")
        return void out.push({ field: path, description: `must be a string, not ${describe(v)}` });
      const problem = checkString(v, compiled);
      if (problem) out.push({ field: path, description: problem });
      return;
    }
    case ScalarType.BOOL:
      if (typeof v !== "boolean") out.push({ field: path, description: `must be true or false, not ${describe(v)}` });
      return;
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      if (typeof v !== "number" || !Number.isFinite(v))
        out.push({ field: path, description: `must be a number, not ${describe(v)}` });
      return;
    case ScalarType.BYTES:
      if (typeof v !== "string") out.push({ field: path, description: "must be a base64 string" });
      return;
    default: {
      const range = INT_RANGES[scalar]!;
      const text =
        typeof v === "number" && Number.isInteger(v)
          ? String(v)
          : typeof v === "string" && INT_TEXT.test(v)
            ? v
            : undefined;
      const n = text === undefined ? undefined : BigInt(text);
      if (n === undefined || n < range[0] || n > range[1]) {
        return void out.push({ field: path, description: `must be an integer between ${range[0]} and ${range[1]}` });
      }
      const problem = checkInteger(n, compiled);
      if (problem) out.push({ field: path, description: problem });
    }
  }
}

/** Handles google.protobuf types whose JSON form is not an object of fields; true when handled. */
function wellKnown(desc: DescMessage, v: unknown, path: string, out: FieldViolation[]): boolean {
  switch (desc.typeName) {
    case "google.protobuf.Timestamp":
      if (typeof v !== "string" || !isRfc3339(v)) {
        out.push({
          field: path,
          description: "must be an RFC 3339 date-time with a UTC offset, e.g. 2026-11-22T10:00:00Z",
        });
      }
      return true;
    case "google.protobuf.Struct":
      if (v === null || typeof v !== "object" || Array.isArray(v))
        out.push({ field: path, description: `must be an object, not ${describe(v)}` });
      return true;
    case "google.protobuf.ListValue":
      if (!Array.isArray(v)) out.push({ field: path, description: `must be an array, not ${describe(v)}` });
      return true;
    case "google.protobuf.Value":
      return true;
    case "google.protobuf.Duration":
      if (typeof v !== "string" || !/^-?\d+(\.\d+)?s$/.test(v))
        out.push({ field: path, description: 'must be a duration such as "1.5s"' });
      return true;
    default:
      return false;
  }
}

/** Checks the `integer_or_uuid` rule of a google.protobuf.Value field (Actor.id). */
export function isIntegerOrUuid(v: unknown): boolean {
  return (typeof v === "number" && Number.isInteger(v)) || (typeof v === "string" && isUuid(v));
}
