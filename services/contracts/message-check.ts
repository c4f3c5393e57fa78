/**
 * Checks a decoded request message against the FieldRules of its descriptor (lengths, patterns,
 * allowed values, formats, integer bounds, required fields), recursing into nested messages.
 * Runs for every request, whatever the protocol (REST transcoder and the Connect/gRPC
 * interceptor), so the limits of docs/api.md "Limits" hold on every path.
 */
import { ScalarType, type DescField, type DescMessage, type Message } from "@bufbuild/protobuf";
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { ruleOf } from "./field-rule.js";
import { TIMESTAMP_RANGE_MS } from "./json-check.js";
import { checkCount, checkInteger, checkString } from "./scalar-rules.js";
import { childPath, type FieldViolation } from "./violation.js";

const plans = new WeakMap<DescMessage, DescField[]>();

/**
 * Fields worth visiting: those with a rule, string fields (no string may hold U+0000), and message
 * fields (which may hold such fields).
 */
function planOf(desc: DescMessage): DescField[] {
  let plan = plans.get(desc);
  if (!plan) {
    plan = desc.fields.filter((f) => {
      const r = ruleOf(f).rule;
      const text = f.scalar === ScalarType.STRING;
      const ruled =
        text ||
        r.required ||
        r.minLen ||
        r.maxLen ||
        r.pattern ||
        r.oneOf.length ||
        r.format ||
        r.hasMin ||
        r.hasMax ||
        r.maxItems;
      const nested =
        (f.fieldKind === "message" || (f.fieldKind === "list" && f.listKind === "message")) &&
        !f.message!.typeName.startsWith("google.");
      return ruled || nested || f.message?.typeName === "google.protobuf.Timestamp";
    });
    plans.set(desc, plan);
  }
  return plan;
}

/** Every rule violation of a decoded message (empty when valid). */
export function checkMessageRules(desc: DescMessage, message: Message, path = ""): FieldViolation[] {
  const out: FieldViolation[] = [];
  visit(desc, message as unknown as Record<string, unknown>, path, out);
  return out;
}

function visit(desc: DescMessage, msg: Record<string, unknown>, path: string, out: FieldViolation[]): void {
  for (const field of planOf(desc)) {
    const compiled = ruleOf(field);
    const fieldPath = childPath(path, field.name);
    const value = msg[field.localName];
    if (field.fieldKind === "list") {
      const list = value as unknown[];
      if (compiled.rule.required && list.length === 0) out.push({ field: fieldPath, description: "must not be empty" });
      const tooMany = checkCount(list.length, compiled);
      if (tooMany) {
        out.push({ field: fieldPath, description: tooMany });
        continue;
      }
      list.forEach((item, i) => checkValue(field, item, childPath(fieldPath, i), out));
      continue;
    }
    if (value === undefined) {
      if (compiled.rule.required) out.push({ field: fieldPath, description: "is required" });
      continue;
    }
    checkValue(field, value, fieldPath, out);
  }
}

function checkValue(field: DescField, value: unknown, path: string, out: FieldViolation[]): void {
  const compiled = ruleOf(field);
  if (field.message?.typeName === "google.protobuf.Timestamp") {
    const problem = checkTimestamp(value as Timestamp);
    if (problem) out.push({ field: path, description: problem });
    return;
  }
  if (field.message && typeof value === "object" && value !== null && !field.message.typeName.startsWith("google.")) {
    return visit(field.message, value as Record<string, unknown>, path, out);
  }
  let problem: string | undefined;
  if (typeof value === "string" && field.scalar === ScalarType.STRING) problem = checkString(value, compiled);
  else if (typeof value === "bigint") problem = checkInteger(value, compiled);
  else if (typeof value === "number" && Number.isInteger(value) && field.scalar !== undefined)
    problem = checkInteger(BigInt(value), compiled);
  if (problem) out.push({ field: path, description: problem });
}

/**
 * What is wrong with a decoded Timestamp, or undefined: its seconds must lie in 0001-01-01 to
 * 9999-12-31 UTC and its nanos in 0 to 999,999,999 (google/protobuf/timestamp.proto). A binary
 * request can carry any values; a JSON one has been checked as text already.
 */
function checkTimestamp(ts: Timestamp): string | undefined {
  const [minMs, maxMs] = TIMESTAMP_RANGE_MS;
  const ok =
    ts.seconds >= BigInt(minMs / 1000) &&
    ts.seconds <= BigInt(Math.floor(maxMs / 1000)) &&
    ts.nanos >= 0 &&
    ts.nanos <= 999_999_999;
  return ok ? undefined : "must be a date-time from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z";
}
