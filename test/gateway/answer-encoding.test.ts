/**
 * The pieces of an answer's encoding made cheaper for the transcoder (docs/rest-json.md "Cost of
 * the transcoder"): Value / ListValue text written directly, the day of a timestamp kept from one
 * to the next, and answer bytes carved from a shared slab. Each must give exactly what it
 * replaced: protobuf-es's toJson text, and `Buffer.from(text)` bytes that no later answer overwrites.
 */
import { create, toJson } from "@bufbuild/protobuf";
import { ListValueSchema, StructSchema, TimestampSchema, ValueSchema, type Value } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_SLICE, SLAB_BYTES, utf8Bytes } from "../../services/gateway/answer-bytes.js";
import { timestampJson } from "../../services/gateway/timestamp-json.js";
import { listValueJson, valueJson } from "../../services/gateway/struct-json.js";

/** Any JSON value, as a google.protobuf.Value. */
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ unit: "binary" }),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.string({ unit: "binary" }), tie("value"), { maxKeys: 4 }),
  ),
})).value;

/** A Value built field by field (not by fromJson, which refuses the non-finite numbers tested below). */
const asValue = (json: unknown): Value => create(ValueSchema, { kind: toValueKind(json) });
function toValueKind(json: unknown): Value["kind"] {
  if (json === null) return { case: "nullValue", value: 0 };
  if (typeof json === "boolean") return { case: "boolValue", value: json };
  if (typeof json === "number") return { case: "numberValue", value: json };
  if (typeof json === "string") return { case: "stringValue", value: json };
  if (Array.isArray(json)) return { case: "listValue", value: create(ListValueSchema, { values: json.map(asValue) }) };
  const fields: Record<string, Value> = {};
  for (const [k, v] of Object.entries(json as object)) fields[k] = asValue(v);
  return { case: "structValue", value: create(StructSchema, { fields }) };
}

describe("Value and ListValue text", () => {
  it("equals protobuf-es's toJson for any JSON value, nested lists and objects included", () => {
    fc.assert(
      fc.property(jsonValue, (json) => {
        const v = asValue(json);
        expect(valueJson(v)).toBe(JSON.stringify(toJson(ValueSchema, v)));
        const list = create(ListValueSchema, { values: [v, v] });
        expect(listValueJson(list)).toBe(JSON.stringify(toJson(ListValueSchema, list)));
      }),
      { numRuns: 2_000 },
    );
  });

  it("fails as toJson does on a value the JSON mapping cannot write", () => {
    for (const bad of [create(ValueSchema), asValue(Number.POSITIVE_INFINITY), asValue(Number.NaN)]) {
      expect(() => toJson(ValueSchema, bad)).toThrow();
      expect(() => valueJson(bad)).toThrow();
    }
  });
});

describe("timestamps written one after another", () => {
  it("equal toJson whether the day changes between them or not", () => {
    fc.assert(
      fc.property(
        fc.bigInt(-62135596800n, 253402300799n - 200_000n),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 200_000 }), fc.integer({ min: 0, max: 999_999_999 })), {
          minLength: 2,
          maxLength: 20,
        }),
        (start, steps) => {
          for (const [step, nanos] of steps) {
            const ts = create(TimestampSchema, { seconds: start + BigInt(step), nanos });
            expect(timestampJson(ts)).toBe(JSON.stringify(toJson(TimestampSchema, ts)));
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe("answer bytes", () => {
  it("are Buffer.from's UTF-8 bytes, and no later answer overwrites them", () => {
    const texts = fc.sample(fc.string({ unit: "binary", maxLength: 3_000 }), 1_000);
    // More than two slabs' worth, with non-ASCII text and lone surrogates.
    texts.push("x".repeat(SLAB_BYTES / 2), "é".repeat(MAX_SLICE / 2 + 1), "\ud800 lone", "x".repeat(MAX_SLICE + 1));
    const kept = texts.map((t) => ({ t, bytes: utf8Bytes(t) }));
    for (const { t, bytes } of kept) expect(bytes.equals(Buffer.from(t, "utf8"))).toBe(true);
  });
});
