/**
 * Path and query parameter values (always text) to proto3 JSON values, with errors that name the
 * parameter. Integers are kept as decimal strings so 64-bit values stay exact; their range is
 * checked here (a pull request number of 2^63 is refused as such, not as a decoder failure).
 * Dates must be RFC 3339 with a UTC offset: a Unix timestamp or a naive date-time is refused
 * (docs/activity-log.md, docs/api.md "Queues" #18).
 */
import { ScalarType, type DescEnum, type DescField } from "@bufbuild/protobuf";
import { INT_RANGES, invalidField, isRfc3339, ruleOf } from "../contracts/index.js";

const INTEGER = /^-?(0|[1-9][0-9]*)$/;

/**
 * Converts the raw values of one parameter for `field`.
 * @param name the parameter as the client wrote it, for messages
 * @throws InvalidArgumentError naming the parameter
 */
export function paramToJson(field: DescField, name: string, raw: string[]): unknown {
  if (field.fieldKind === "list") {
    if (field.listKind === "message") return raw.map((v) => messageParam(field.message.typeName, name, v));
    return raw.map((v) =>
      field.listKind === "enum" ? enumParam(field.enum, name, v) : scalarParam(field, field.scalar, name, v),
    );
  }
  if (raw.length > 1) throw invalidField(name, "must be given at most once");
  const v = raw[0];
  switch (field.fieldKind) {
    case "scalar":
      return scalarParam(field, field.scalar, name, v);
    case "enum":
      return enumParam(field.enum, name, v);
    case "message":
      return messageParam(field.message.typeName, name, v);
    default:
      throw invalidField(name, "cannot be given as a URL parameter");
  }
}

function scalarParam(field: DescField, scalar: ScalarType, name: string, v: string): unknown {
  switch (scalar) {
    case ScalarType.STRING:
      return v;
    case ScalarType.BOOL:
      if (v === "true" || v === "false") return v === "true";
      throw invalidField(name, "must be true or false");
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT: {
      const n = Number(v);
      if (v.trim() === "" || Number.isNaN(n)) throw invalidField(name, "must be a number");
      return n;
    }
    case ScalarType.BYTES:
      return v;
    default: {
      const { rule } = ruleOf(field);
      const [typeMin, typeMax] = INT_RANGES[scalar]!;
      // The field's own bounds (FieldRule min, max) make the message say what is really accepted.
      const min = rule.hasMin && rule.min > typeMin ? rule.min : typeMin;
      const max = rule.hasMax && rule.max < typeMax ? rule.max : typeMax;
      if (!INTEGER.test(v) || BigInt(v) < min || BigInt(v) > max) {
        throw invalidField(name, `must be an integer between ${min} and ${max}`);
      }
      return v;
    }
  }
}

function enumParam(desc: DescEnum, name: string, v: string): string {
  const allowed = desc.values.filter((x) => x.number !== 0).map((x) => x.name);
  if (!allowed.includes(v)) throw invalidField(name, `must be one of ${allowed.join(", ")}`);
  return v;
}

function messageParam(typeName: string, name: string, v: string): unknown {
  if (typeName === "google.protobuf.Timestamp") {
    if (!isRfc3339(v)) {
      throw invalidField(
        name,
        "must be an ISO 8601 date-time with a UTC offset, e.g. 2026-11-22T10:00:00Z (a Unix timestamp or a date-time without offset is refused)",
      );
    }
    return v;
  }
  throw invalidField(name, "cannot be given as a URL parameter");
}
