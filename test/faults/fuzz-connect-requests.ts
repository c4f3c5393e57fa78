/**
 * The fault fuzzer's Connect requests (fuzz.test.ts): JSON bodies built from each RPC's own input
 * message, field by field. The named fields (repository, path, ref) take values valid on the
 * fuzzer's server, set by {@link useFuzzPaths} before the first run.
 */
import { ScalarType, type DescField, type DescMessage, type DescService } from "@bufbuild/protobuf";
import fc from "fast-check";
import { ActivityLogService } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { ProductService, TokenService } from "../../gen/yardmaster/v1/admin_pb.js";
import { ForgeService } from "../../gen/yardmaster/v1/forge_pb.js";
import { QueueService } from "../../gen/yardmaster/v1/queue_pb.js";
import { SimulatorService } from "../../gen/yardmaster/v1/simulator_pb.js";
import { anyValue, queryValue } from "./fuzz-values.js";

let paths = { source: "/nowhere", work: "/nowhere" };

/** The local repository's work tree and the test's directory, for the fields that name a path. */
export function useFuzzPaths(source: string, work: string): void {
  paths = { source, work };
}

/** The services the fuzzer calls, and each of their RPCs with its Connect path and input message. */
export const SERVICES: DescService[] = [
  QueueService,
  SimulatorService,
  ActivityLogService,
  ForgeService,
  TokenService,
  ProductService,
];
export const METHODS = SERVICES.flatMap((s) =>
  s.methods.map((m) => ({ path: `/${s.typeName}/${m.name}`, input: m.input })),
);

/** Values that pass validation for the fields that name a repository, a path or a ref (read when generated: the source exists by then). */
const NAMED_FIELDS: Record<string, () => string[]> = {
  owner: () => ["acme", "fuzz"],
  repository: () => ["widgets", "fuzz"],
  name: () => ["widgets", "fuzz"],
  from_path: () => [paths.source, paths.work, "/nowhere"],
  source_ref: () => ["feature", "main", "HEAD~5"],
  branch: () => ["main", "feature", "gone"],
  head: () => ["feature", "main"],
  base: () => ["main", "feature"],
  ref: () => ["main", "feature"],
  service_yml: () => [
    "queue_rules:\n  - name: q\n    batch_size: 3\n",
    "queue_rules: [",
    'queue_rules:\n  - name: q\n    merge_conditions:\n      - "#approved-reviews-by>="\n',
  ],
};

/** Strings a field is likely to hold here (so that validation is passed often enough to reach the handlers), and hostile ones. */
const plausibleString = (field: string) =>
  fc.oneof(
    {
      weight: NAMED_FIELDS[field] ? 40 : 0,
      arbitrary: fc.constant(null).chain(() => fc.constantFrom(...(NAMED_FIELDS[field]?.() ?? ["-"]))),
    },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        "acme",
        "widgets",
        "main",
        "fuzz",
        "1",
        "action.queue.merged",
        "success",
        "queue_rules:\n  - name: q\n",
        "2026-11-24T00:00:00Z",
        "@yardmaster queue",
      ),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 80 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "",
        "../..",
        "/",
        "refs/heads/main",
        "a".repeat(300),
        "' OR 1=1 --",
        "2026-11-24T00:00:00",
        "-1",
        "a\u0000b",
        "\u0000",
      ),
    },
  );

const SIGNED = new Set([
  ScalarType.INT32,
  ScalarType.INT64,
  ScalarType.SINT32,
  ScalarType.SINT64,
  ScalarType.SFIXED32,
  ScalarType.SFIXED64,
]);
const LONG = new Set([ScalarType.INT64, ScalarType.UINT64, ScalarType.SINT64, ScalarType.FIXED64, ScalarType.SFIXED64]);

/** A JSON value for a scalar field: mostly of the right type (in range or not), sometimes of another type. */
function scalarValue(type: ScalarType, name: string): fc.Arbitrary<unknown> {
  const right =
    type === ScalarType.STRING
      ? plausibleString(name)
      : type === ScalarType.BOOL
        ? fc.boolean()
        : type === ScalarType.BYTES
          ? fc.base64String({ maxLength: 16 })
          : type === ScalarType.DOUBLE || type === ScalarType.FLOAT
            ? fc.double()
            : fc.oneof(
                { weight: 3, arbitrary: fc.integer({ min: SIGNED.has(type) ? -1 : 0, max: 3 }) },
                fc.integer({ min: SIGNED.has(type) ? -3 : 0, max: 12 }),
                LONG.has(type)
                  ? fc.bigInt({ min: -(2n ** 65n), max: 2n ** 65n }).map(String)
                  : fc.integer({ min: -(2 ** 33), max: 2 ** 33 }),
              );
  return fc.oneof({ weight: 30, arbitrary: right }, { weight: 1, arbitrary: anyValue });
}

/** A JSON value for a message-typed field: the JSON forms of the well-known types, else a nested object. */
function messageField(message: DescMessage, depth: number): fc.Arbitrary<unknown> {
  if (message.typeName === "google.protobuf.Timestamp")
    return fc.oneof(
      fc.date({ min: new Date(-1e13), max: new Date(1e13), noInvalidDate: true }).map((d) => d.toISOString()),
      queryValue,
    );
  if (message.typeName === "google.protobuf.Duration")
    return fc.oneof(
      fc.integer({ min: -10, max: 1e6 }).map((n) => `${n}s`),
      fc.string({ maxLength: 6 }),
    );
  if (message.typeName === "google.protobuf.Struct" || message.typeName === "google.protobuf.Value")
    return fc.jsonValue({ maxDepth: 2 });
  return depth > 0 ? messageValue(message, depth - 1) : anyValue;
}

/** A JSON object for a message (its own field names, values by field kind), `depth` levels of nested messages at most. */
export function messageValue(message: DescMessage, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const field = (f: DescField): fc.Arbitrary<unknown> => {
    switch (f.fieldKind) {
      case "scalar":
        return scalarValue(f.scalar, f.name);
      case "enum":
        return fc.oneof(fc.constantFrom(...f.enum.values.map((v) => v.name)), fc.integer({ min: -1, max: 40 }));
      case "message":
        return messageField(f.message, depth);
      case "list":
        return fc.array(
          f.listKind === "scalar"
            ? scalarValue(f.scalar, f.name)
            : f.listKind === "enum"
              ? fc.constantFrom(...f.enum.values.map((v) => v.name))
              : messageField(f.message, depth),
          { maxLength: 3 },
        );
      case "map":
        return fc.dictionary(
          fc.string({ maxLength: 6 }),
          f.mapKind === "scalar" ? scalarValue(f.scalar, f.name) : anyValue,
          { maxKeys: 2 },
        );
    }
  };
  const names = message.fields.map((f) => f.jsonName);
  if (names.length === 0) return fc.constant({});
  // The fields that name the repository, a path or a ref are always there, every other one half the time; now and then one
  // of them is dropped after all (a oneof then often holds one member), and now and then a key the message does not have.
  const requiredKeys = message.fields.filter((f) => NAMED_FIELDS[f.name]).map((f) => f.jsonName);
  return fc
    .tuple(
      fc.record(Object.fromEntries(message.fields.map((f) => [f.jsonName, field(f)])), { requiredKeys }),
      fc.oneof(
        { weight: 6, arbitrary: fc.constant<string[]>([]) },
        { weight: 1, arbitrary: fc.uniqueArray(fc.constantFrom(...names), { minLength: 1, maxLength: 2 }) },
      ),
      fc.oneof(
        { weight: 9, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), anyValue) },
      ),
    )
    .map(([body, dropped, extra]) => {
      const kept: Record<string, unknown> = Object.fromEntries(
        Object.entries(body).filter(([k]) => !dropped.includes(k)),
      );
      return extra ? { ...kept, [extra[0]]: extra[1] } : kept;
    });
}

/** A Connect JSON request: mostly built from the method's input message, sometimes any JSON or no JSON at all. */
export const connectRequest = fc.constantFrom(...METHODS).chain((m) =>
  fc.record({
    path: fc.constant(m.path),
    body: fc.oneof(
      { weight: 6, arbitrary: messageValue(m.input, 2).map((b) => JSON.stringify(b)) },
      { weight: 1, arbitrary: fc.json({ maxDepth: 2 }) },
      { weight: 1, arbitrary: fc.string({ maxLength: 50 }) },
    ),
  }),
);
