/**
 * The REST JSON writer: a response message to the JSON text of the interface (docs/rest-json.md).
 * - keys are proto field names (snake_case, as docs/api.md writes them);
 * - 64-bit integers are exact JSON numbers (JSON.stringify cannot write them, proto3 JSON would
 *   quote them);
 * - every field is present: an unset message field or unset `optional` scalar is `null`, lists
 *   are `[]`, scalars their value (zero included);
 * - enums are their value names, Timestamps RFC 3339 in UTC, Struct/Value/ListValue plain JSON.
 * One writer function is generated per message type on first use and cached, so a response is
 * written in one walk without an intermediate JSON object.
 */
import { ScalarType, toJson, type DescEnum, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { DurationSchema } from "@bufbuild/protobuf/wkt";
import { isSharedMessage } from "../contracts/index.js";
import { utf8Bytes } from "./answer-bytes.js";
import { listValueJson, valueJson } from "./struct-json.js";
import { timestampJson } from "./timestamp-json.js";

// biome-ignore lint/suspicious/noExplicitAny: a writer takes any protobuf-es field value; each writer knows its field type
type Write = (value: any) => string;

const writers = new WeakMap<DescMessage, Write>();
/** The JSON text of shared messages, at any depth of an answer, written once (contracts/frozen-message.ts). */
const sharedTexts = new WeakMap<object, string>();
/** The bytes of shared messages sent as a whole answer. */
const sharedBodies = new WeakMap<object, Buffer>();

/**
 * The JSON text of a message of type `desc` (see the module comment for the rules). The text of a
 * shared message (contracts/frozen-message.ts: deeply frozen), whole or nested, is written once and
 * kept while the message lives.
 */
export function writeRestJson(desc: DescMessage, message: unknown): string {
  return messageWriter(desc)(message);
}

/**
 * The UTF-8 bytes of {@link writeRestJson}'s text, where bytes are needed: a server-sent event's
 * data (sse.ts) and a shared message's answer, encoded once (a large answer sent to many requests
 * is then not encoded again for each). Bytes made for one message are a slice of a shared slab
 * (answer-bytes.ts), not an ArrayBuffer of their own. A whole answer made for one request goes
 * out as text ({@link restJsonAnswer}).
 */
export function restJsonBody(desc: DescMessage, message: unknown): Buffer {
  if (!isSharedMessage(message)) return utf8Bytes(writeRestJson(desc, message));
  let body = sharedBodies.get(message);
  if (body === undefined) sharedBodies.set(message, (body = Buffer.from(writeRestJson(desc, message))));
  return body;
}

/**
 * The body of a whole REST answer (docs/rest-json.md "The answer's path"): for a shared message
 * its bytes, encoded once ({@link restJsonBody}); for any other the writer's text itself. A text
 * made for one request is not copied into bytes here: Node writes the answer's head and a text
 * body as one string, encoded to UTF-8 by the socket write, which measured cheaper than a byte
 * copy in a slab followed by a two-piece write (head, then body).
 */
export function restJsonAnswer(desc: DescMessage, message: unknown): string | Buffer {
  return isSharedMessage(message) ? restJsonBody(desc, message) : writeRestJson(desc, message);
}

function messageWriter(desc: DescMessage): Write {
  const w = writers.get(desc);
  if (w) return w;
  const wkt = wellKnownWriter(desc);
  if (wkt) {
    writers.set(desc, wkt);
    return wkt;
  }
  // Set first: recursive types (Batch.sub_batches) reach this message again while compiling.
  let compiled: Write | undefined;
  const write: Write = (v) => {
    if (!isSharedMessage(v)) return compiled!(v);
    let text = sharedTexts.get(v);
    if (text === undefined) sharedTexts.set(v, (text = compiled!(v)));
    return text;
  };
  writers.set(desc, write);
  compiled = desc.oneofs.length > 0 ? interpretedWriter(desc) : generatedWriter(desc);
  return write;
}

/**
 * A writer generated as JavaScript source for one message type, with a constant property access
 * per field (like fast-json-stringify): about 3x faster than walking the fields generically,
 * which matters because every REST response goes through it. Only descriptor data (field names,
 * JSON-escaped) enters the source; values are reached through the helper array `h`.
 */
function generatedWriter(desc: DescMessage): Write {
  const helpers: Write[] = [];
  const helper = (fn: Write) => `h[${helpers.push(fn) - 1}]`;
  const body: string[] = ['var s="{",v;'];
  desc.fields.forEach((field, i) => {
    const key = JSON.stringify(`${(i ? "," : "") + JSON.stringify(field.name)}:`);
    body.push(`v=m[${JSON.stringify(field.localName)}];s+=${key};`);
    if (field.fieldKind === "list") {
      const item = valueExpression(field, "x", helper);
      body.push(
        `if(v===undefined||v.length===0)s+="[]";else{var x=v[0];s+="["+${item};for(var j=1;j<v.length;j++){x=v[j];s+=","+${item};}s+="]";}`,
      );
    } else {
      body.push(`s+=v===undefined?"null":${valueExpression(field, "v", helper)};`);
    }
  });
  body.push('return s+"}";');
  const factory = new Function("h", `return function write(m){${body.join("")}};`) as (h: Write[]) => Write;
  return factory(helpers);
}

/** A JavaScript expression writing `name` (a value of the field, or a list item) as JSON. */
function valueExpression(field: DescField, name: string, helper: (fn: Write) => string): string {
  const kind = field.fieldKind === "list" ? field.listKind : field.fieldKind === "map" ? "map" : field.fieldKind;
  switch (kind) {
    case "scalar":
      switch (field.scalar!) {
        case ScalarType.STRING:
          return `JSON.stringify(${name})`;
        case ScalarType.BOOL:
          return `(${name}?"true":"false")`;
        case ScalarType.DOUBLE:
        case ScalarType.FLOAT:
        case ScalarType.BYTES:
          return `${helper(scalarWriter(field.scalar!))}(${name})`;
        default:
          return `(""+${name})`;
      }
    case "enum":
      return `${helper(enumWriter(field.enum!))}(${name})`;
    case "message":
      return `${helper(messageWriter(field.message!))}(${name})`;
    default:
      return `${helper(fieldWriter(field))}(${name})`;
  }
}

/** The generic writer, for messages with oneofs (none in the REST responses today). */
function interpretedWriter(desc: DescMessage): Write {
  const parts = desc.fields.map((field) => ({
    field,
    key: `${JSON.stringify(field.name)}:`,
    write: fieldWriter(field),
  }));
  return (msg: Record<string, unknown>) => {
    let out = "{";
    for (let i = 0; i < parts.length; i++) {
      const { field, key, write } = parts[i];
      let value: unknown;
      if (field.oneof) {
        const group = msg[field.oneof.localName] as { case?: string; value?: unknown };
        if (group.case !== field.localName) continue;
        value = group.value;
      } else {
        value = msg[field.localName];
      }
      if (out.length > 1) out += ",";
      out += key + (value === undefined ? "null" : write(value));
    }
    return `${out}}`;
  };
}

function fieldWriter(field: DescField): Write {
  switch (field.fieldKind) {
    case "scalar":
      return scalarWriter(field.scalar);
    case "enum":
      return enumWriter(field.enum);
    case "message":
      return messageWriter(field.message);
    case "list": {
      const item =
        field.listKind === "scalar"
          ? scalarWriter(field.scalar)
          : field.listKind === "enum"
            ? enumWriter(field.enum)
            : messageWriter(field.message);
      return (list: unknown[]) => {
        let out = "[";
        for (let i = 0; i < list.length; i++) out += (i ? "," : "") + item(list[i]);
        return `${out}]`;
      };
    }
    case "map": {
      const value =
        field.mapKind === "scalar"
          ? scalarWriter(field.scalar)
          : field.mapKind === "enum"
            ? enumWriter(field.enum)
            : messageWriter(field.message);
      return (map: Record<string, unknown>) => {
        let out = "{";
        for (const k in map) out += `${(out.length > 1 ? "," : "") + JSON.stringify(k)}:${value(map[k])}`;
        return `${out}}`;
      };
    }
  }
}

function enumWriter(desc: DescEnum): Write {
  const names = new Map(desc.values.map((v) => [v.number, JSON.stringify(v.name)]));
  return (n: number) => names.get(n) ?? String(n);
}

function scalarWriter(scalar: ScalarType): Write {
  switch (scalar) {
    case ScalarType.STRING:
      return (v: string) => JSON.stringify(v);
    case ScalarType.BOOL:
      return (v: boolean) => (v ? "true" : "false");
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return (v: number) => (Number.isFinite(v) ? String(v) : JSON.stringify(String(v)));
    case ScalarType.BYTES:
      return (v: Uint8Array) => JSON.stringify(Buffer.from(v).toString("base64"));
    default:
      // 32- and 64-bit integers: number, bigint or (jstype=JS_STRING) a decimal string; all exact.
      return (v: number | bigint | string) => String(v);
  }
}

function wellKnownWriter(desc: DescMessage): Write | undefined {
  switch (desc.typeName) {
    case "google.protobuf.Timestamp":
      return timestampJson;
    case "google.protobuf.Duration":
      return (v) => JSON.stringify(toJson(DurationSchema, v));
    case "google.protobuf.Struct":
      // Unwrapped by protobuf-es to a plain JSON object.
      return (v) => JSON.stringify(v);
    case "google.protobuf.Value":
      return valueJson;
    case "google.protobuf.ListValue":
      return listValueJson;
    case "google.protobuf.Empty":
      return () => "{}";
    case "google.protobuf.StringValue":
    case "google.protobuf.BytesValue":
      return (v) => JSON.stringify(v);
    case "google.protobuf.BoolValue":
    case "google.protobuf.Int32Value":
    case "google.protobuf.UInt32Value":
    case "google.protobuf.Int64Value":
    case "google.protobuf.UInt64Value":
    case "google.protobuf.DoubleValue":
    case "google.protobuf.FloatValue":
      // Unwrapped by protobuf-es to the scalar; 64-bit values are bigint and stay exact.
      return (v) => (typeof v === "number" && !Number.isFinite(v) ? JSON.stringify(String(v)) : String(v));
    default:
      return undefined;
  }
}
