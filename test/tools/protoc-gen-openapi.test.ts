/**
 * The OpenAPI generator (tools/protoc-gen-openapi/document.ts) on rules the current protos do not
 * use but the transcoder serves, so routes other changes add appear with no generator change:
 * additional bindings, PATCH with a body field, a custom verb, a multi-segment variable, a rule
 * the transcoder refuses (the generator refuses it too).
 */
import { create, createFileRegistry, setExtension, type MessageInitShape } from "@bufbuild/protobuf";
import {
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FileDescriptorProtoSchema,
  MethodOptionsSchema,
  file_google_protobuf_empty,
} from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { http } from "../../gen/google/api/annotations_pb.js";
import { HttpRuleSchema } from "../../gen/google/api/http_pb.js";
import { field } from "../../gen/yardmaster/v1/common_pb.js";
import { RouteCompileError } from "../../services/gateway/index.js";
import { buildDocument } from "../../tools/protoc-gen-openapi/document.js";

type Rule = MessageInitShape<typeof HttpRuleSchema>;
const { OPTIONAL } = FieldDescriptorProto_Label;
const { STRING, MESSAGE, INT64 } = FieldDescriptorProto_Type;

/** A service `t.S` whose methods carry the given rules; request `t.Req {id, freeze: t.Freeze, page_size}`. */
function serviceWithRules(rules: [string, Rule][]) {
  const proto = create(FileDescriptorProtoSchema, {
    name: "t.proto",
    package: "t",
    syntax: "proto3",
    dependency: ["google/protobuf/empty.proto"],
    messageType: [
      { name: "Freeze", field: [{ name: "reason", number: 1, type: STRING, label: OPTIONAL, jsonName: "reason" }] },
      {
        name: "Req",
        field: [
          { name: "id", number: 1, type: STRING, label: OPTIONAL, jsonName: "id" },
          { name: "freeze", number: 2, type: MESSAGE, typeName: ".t.Freeze", label: OPTIONAL, jsonName: "freeze" },
          { name: "page_size", number: 3, type: INT64, label: OPTIONAL, jsonName: "pageSize" },
        ],
      },
    ],
    service: [
      {
        name: "S",
        method: rules.map(([name, rule]) => {
          const options = create(MethodOptionsSchema);
          setExtension(options, http, create(HttpRuleSchema, rule));
          return { name, inputType: ".t.Req", outputType: ".t.Freeze", options };
        }),
      },
    ],
  });
  const registry = createFileRegistry(proto, (name) =>
    name === "google/protobuf/empty.proto" ? file_google_protobuf_empty : undefined,
  );
  return registry.getService("t.S")!;
}

const documentOf = (rules: [string, Rule][]) =>
  buildDocument({ services: [serviceWithRules(rules)], http, fieldRule: field, version: "test" }) as {
    paths: Record<string, Record<string, any>>;
  };

describe("buildDocument", () => {
  it("documents additional bindings, a PATCH body field, a custom verb and a ** variable", () => {
    const doc = documentOf([
      [
        "Update",
        {
          pattern: { case: "patch", value: "/v1/freezes/{id}" },
          body: "freeze",
          additionalBindings: [{ pattern: { case: "post", value: "/v1/freezes/{id}:update" }, body: "freeze" }],
        },
      ],
      ["Get", { pattern: { case: "get", value: "/v1/refs/{id=heads/**}" } }],
    ]);
    expect(Object.keys(doc.paths).sort()).toEqual(["/v1/freezes/{id}", "/v1/freezes/{id}:update", "/v1/refs/{id}"]);
    const patch = doc.paths["/v1/freezes/{id}"].patch;
    expect(patch.operationId).toBe("S_Update");
    expect(doc.paths["/v1/freezes/{id}:update"].post.operationId).toBe("S_Update_2");
    expect(patch.requestBody.content["application/json"].schema).toMatchObject({
      $ref: "#/components/schemas/input.t.Freeze",
    });
    // The body field is not a query parameter; the rest of the request is.
    expect(patch.parameters.map((p: any) => `${p.in}:${p.name}`)).toEqual(["path:id", "query:page_size"]);
    expect(Object.keys(patch.responses)).toEqual(expect.arrayContaining(["200", "404", "413", "415", "422"]));
    const get = doc.paths["/v1/refs/{id}"].get;
    expect(get.parameters[0]).toMatchObject({ name: "id", in: "path", description: expect.stringContaining("/") });
    expect(get.parameters.map((p: any) => p.name)).toEqual(["id", "freeze.reason", "page_size"]);
  });

  it("refuses what the transcoder refuses", () => {
    expect(() => documentOf([["Bad", { pattern: { case: "get", value: "/v1/x/{nope}" } }]])).toThrow(RouteCompileError);
    expect(() => documentOf([["Bad", { pattern: { case: "get", value: "/v1/x" }, body: "*" }]])).toThrow(
      /cannot have a body/,
    );
  });
});
