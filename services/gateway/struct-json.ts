/**
 * google.protobuf.Value and ListValue as plain JSON for the REST JSON writer (rest-json.ts,
 * docs/rest-json.md): the same text as protobuf-es's `toJson` (proto3 JSON mapping,
 * <https://protobuf.dev/programming-guides/json/>), written directly. `toJson` walks the
 * message by reflection, which cost microseconds per value in every merge queue status (its scope
 * lanes are lists of Values).
 */
import { toJson } from "@bufbuild/protobuf";
import { ValueSchema, type ListValue, type Value } from "@bufbuild/protobuf/wkt";

/**
 * The JSON text of a Value. A Value without a kind or with a non-finite number is left to
 * protobuf-es's `toJson`, so that it fails as it always did.
 * @throws Error from protobuf-es for a Value the JSON mapping cannot write
 */
export function valueJson(v: Value): string {
  const kind = v.kind;
  switch (kind.case) {
    case "nullValue":
      return "null";
    case "boolValue":
      return kind.value ? "true" : "false";
    case "stringValue":
      return JSON.stringify(kind.value);
    case "numberValue":
      if (Number.isFinite(kind.value)) return JSON.stringify(kind.value);
      break;
    case "listValue":
      return listValueJson(kind.value);
    case "structValue": {
      const fields = kind.value.fields;
      let out = "{";
      for (const key in fields) out += `${(out.length > 1 ? "," : "") + JSON.stringify(key)}:${valueJson(fields[key])}`;
      return `${out}}`;
    }
  }
  return JSON.stringify(toJson(ValueSchema, v));
}

/** The JSON text of a ListValue: an array of its values. @throws as {@link valueJson} */
export function listValueJson(list: ListValue): string {
  const values = list.values;
  let out = "[";
  for (let i = 0; i < values.length; i++) out += (i ? "," : "") + valueJson(values[i]);
  return `${out}]`;
}
