/**
 * JSON Schemas (OpenAPI 3.1 = JSON Schema 2020-12) of protobuf messages as the REST surface writes
 * and reads them (docs/rest-json.md):
 * - keys are proto field names; 64-bit integers are JSON integers (exact, never quoted);
 * - enums are their value names; Timestamps RFC 3339 strings; Durations proto3 JSON ("1.5s");
 *   Struct/Value/ListValue plain JSON; wrappers their scalar;
 * - in a response every field is present (required), except the members of a oneof, of which
 *   only the set one is written; an unset message field or `optional` scalar is `null`;
 * - in a request every field may be left out, unknown keys are refused (422), and the
 *   `(yardmaster.v1.field)` rules (services/contracts/field-rule.ts) become keywords: lengths,
 *   patterns, allowed values, integer bounds, item counts, `required`.
 * Messages become components: `<full name>` for responses, `input.<full name>` for requests.
 */
import { getOption, hasOption, ScalarType, type DescEnum, type DescField, type DescMessage } from "@bufbuild/protobuf";
import type { GenExtension } from "@bufbuild/protobuf/codegenv2";
import type { FieldOptions } from "@bufbuild/protobuf/wkt";
import { getComments } from "@bufbuild/protoplugin";
import type { FieldRule } from "../../gen/yardmaster/v1/common_pb.js";

/** A JSON Schema object. */
export type JsonSchema = Record<string, unknown>;

/** Response (as written) or request (as read) side. */
export type Side = "response" | "request";

/** The `(yardmaster.v1.field)` extension of FieldOptions. */
export type FieldRuleExtension = GenExtension<FieldOptions, FieldRule>;

const NULL: JsonSchema = { type: "null" };
const INT32 = [ScalarType.INT32, ScalarType.SINT32, ScalarType.SFIXED32, ScalarType.UINT32, ScalarType.FIXED32];

/** Collects component schemas while operations refer to messages. */
export class SchemaSet {
  readonly components: Record<string, JsonSchema> = {};

  constructor(private readonly fieldRule: FieldRuleExtension | undefined) {}

  /** The component name of a message on a side. */
  static componentName(desc: DescMessage, side: Side): string {
    return side === "response" ? desc.typeName : `input.${desc.typeName}`;
  }

  /** A `$ref` to the message's component (or the inline schema of a well-known type), adding it once. */
  ref(desc: DescMessage, side: Side): JsonSchema {
    const wkt = wellKnown(desc);
    if (wkt) return wkt;
    const name = SchemaSet.componentName(desc, side);
    if (!(name in this.components)) {
      this.components[name] = {};
      this.components[name] = this.objectSchema(desc, side, new Set());
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  /** The object schema of a message, leaving out the fields named in `omit` (bound by the path). */
  objectSchema(desc: DescMessage, side: Side, omit: ReadonlySet<string>): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const field of desc.fields) {
      if (omit.has(field.name)) continue;
      properties[field.name] = this.fieldSchema(field, side);
      if (side === "response" && !field.oneof) required.push(field.name);
      if (side === "request" && this.rule(field)?.required) required.push(field.name);
    }
    return withDescription(
      {
        type: "object",
        properties,
        ...(required.length ? { required } : {}),
        ...(side === "request" ? { additionalProperties: false } : {}),
      },
      getComments(desc).leading,
    );
  }

  /** The schema of one field's JSON value (a whole list or map for repeated and map fields). */
  fieldSchema(field: DescField, side: Side): JsonSchema {
    const rule = side === "request" ? this.rule(field) : undefined;
    let schema: JsonSchema;
    switch (field.fieldKind) {
      case "list": {
        const items = this.valueSchema(field.listKind, field.scalar, field.enum, field.message, side, rule);
        schema = { type: "array", items, ...(rule?.maxItems ? { maxItems: rule.maxItems } : {}) };
        break;
      }
      case "map": {
        const values = this.valueSchema(field.mapKind, field.scalar, field.enum, field.message, side, undefined);
        schema = { type: "object", additionalProperties: values };
        break;
      }
      default: {
        schema = this.valueSchema(field.fieldKind, field.scalar, field.enum, field.message, side, rule);
        const nullable = field.fieldKind === "message" || field.proto.proto3Optional;
        if (side === "response" && nullable && !field.oneof) schema = orNull(schema);
        if (side === "request" && rule?.nullable) schema = orNull(schema);
      }
    }
    return withDescription(schema, getComments(field).leading);
  }

  /** The schema of a request field when given as a path or query parameter (text converted by the gateway). */
  parameterSchema(field: DescField): JsonSchema {
    const schema = this.fieldSchema(field, "request");
    delete schema.description;
    return schema;
  }

  /** The field's rule, or undefined when it has none. */
  rule(field: DescField): FieldRule | undefined {
    if (!this.fieldRule || !hasOption(field, this.fieldRule)) return undefined;
    return getOption(field, this.fieldRule);
  }

  private valueSchema(
    kind: "scalar" | "enum" | "message",
    scalar: ScalarType | undefined,
    enumDesc: DescEnum | undefined,
    message: DescMessage | undefined,
    side: Side,
    rule: FieldRule | undefined,
  ): JsonSchema {
    if (kind === "enum") {
      const names = enumDesc!.values.map((v) => v.name);
      return { type: "string", enum: rule?.oneOf.length ? rule.oneOf : names };
    }
    if (kind === "message") {
      if (rule?.integerOrUuid) return { anyOf: [{ type: "integer" }, { type: "string", format: "uuid" }] };
      return this.ref(message!, side);
    }
    return withRule(scalarSchema(scalar!), rule);
  }
}

/** The schema of a scalar as the REST JSON writes it. */
export function scalarSchema(scalar: ScalarType): JsonSchema {
  switch (scalar) {
    case ScalarType.STRING:
      return { type: "string" };
    case ScalarType.BYTES:
      return { type: "string", contentEncoding: "base64" };
    case ScalarType.BOOL:
      return { type: "boolean" };
    case ScalarType.DOUBLE:
      return { type: "number", format: "double" };
    case ScalarType.FLOAT:
      return { type: "number", format: "float" };
    default:
      return INT32.includes(scalar) ? { type: "integer", format: "int32" } : { type: "integer", format: "int64" };
  }
}

const HEX_COLOR = "^[0-9A-Fa-f]{6}$";

/** A scalar schema with the request rule's keywords (services/contracts/scalar-rules.ts). */
function withRule(schema: JsonSchema, rule: FieldRule | undefined): JsonSchema {
  if (!rule) return schema;
  const out = { ...schema };
  if (out.type === "string") {
    const minLength = Math.max(rule.minLen, rule.required ? 1 : 0);
    if (minLength) out.minLength = minLength;
    if (rule.maxLen) out.maxLength = rule.maxLen;
    if (rule.pattern) out.pattern = rule.pattern;
    if (rule.oneOf.length) out.enum = [...rule.oneOf];
    if (rule.format === "uuid" || rule.format === "date") out.format = rule.format;
    if (rule.format === "hex-color") out.pattern = HEX_COLOR;
  }
  if (out.type === "integer") {
    if (rule.hasMin) out.minimum = Number(rule.min);
    if (rule.hasMax) out.maximum = Number(rule.max);
  }
  return out;
}

function wellKnown(desc: DescMessage): JsonSchema | undefined {
  switch (desc.typeName) {
    case "google.protobuf.Timestamp":
      return { type: "string", format: "date-time" };
    case "google.protobuf.Duration":
      return { type: "string", pattern: "^-?[0-9]+(\\.[0-9]+)?s$", description: "seconds, e.g. 1.5s" };
    case "google.protobuf.Struct":
    case "google.protobuf.Empty":
      return { type: "object" };
    case "google.protobuf.Value":
      return {};
    case "google.protobuf.ListValue":
      return { type: "array" };
    case "google.protobuf.StringValue":
      return { type: "string" };
    case "google.protobuf.BytesValue":
      return { type: "string", contentEncoding: "base64" };
    case "google.protobuf.BoolValue":
      return { type: "boolean" };
    case "google.protobuf.DoubleValue":
    case "google.protobuf.FloatValue":
      return { type: "number" };
    case "google.protobuf.Int32Value":
    case "google.protobuf.UInt32Value":
    case "google.protobuf.Int64Value":
    case "google.protobuf.UInt64Value":
      return { type: "integer" };
    default:
      return undefined;
  }
}

function orNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === "string" && !("$ref" in schema)) {
    const { type, enum: values, ...rest } = schema;
    return { ...rest, type: [type, "null"], ...(values ? { enum: [...(values as unknown[]), null] } : {}) };
  }
  return { anyOf: [schema, NULL] };
}

/** The comment of a descriptor, trimmed, as `description` (left out when empty). */
function withDescription(schema: JsonSchema, comment: string | undefined): JsonSchema {
  const text = comment?.trim().replace(/\n /g, "\n");
  return text ? { ...schema, description: text } : schema;
}
