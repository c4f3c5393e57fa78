/**
 * protoc-gen-openapi: a protoc plugin (run by `npm run generate`, buf.gen.yaml) writing
 * `openapi.json`, the OpenAPI 3.1 document of the REST surface (document.ts). It reads the
 * `google.api.http` and `(yardmaster.v1.field)` options through the extensions found in the
 * request's own files, so it needs nothing from gen/ (which it helps write). Plugin options:
 * none. Output: pretty JSON with sorted paths and components, the same bytes for the same protos.
 */
import type { DescExtension } from "@bufbuild/protobuf";
import { createEcmaScriptPlugin, runNodeJs, type Schema } from "@bufbuild/protoplugin";
import type { HttpExtension, RouteExtensions } from "../../services/gateway/http-rules.js";
import { buildDocument } from "./document.js";
import type { FieldRuleExtension } from "./json-schemas.js";

const VERSION = "v1";

function extension(schema: Schema, typeName: string): DescExtension | undefined {
  for (const file of schema.allFiles) {
    const found = file.extensions.find((e) => e.typeName === typeName);
    if (found) return found;
  }
  return undefined;
}

function generate(schema: Schema): void {
  const http = extension(schema, "google.api.http");
  if (!http) throw new Error("protoc-gen-openapi: google/api/annotations.proto is not among the inputs");
  const doc = buildDocument({
    services: schema.files.flatMap((f) => f.services),
    http: http as HttpExtension,
    fieldRule: extension(schema, "yardmaster.v1.field") as FieldRuleExtension | undefined,
    routeExtensions: {
      upload: extension(schema, "yardmaster.v1.upload") as RouteExtensions["upload"],
      successStatus: extension(schema, "yardmaster.v1.success_status") as RouteExtensions["successStatus"],
    },
    version: VERSION,
  });
  schema.generateFile("openapi.json").print(JSON.stringify(doc, null, 2));
}

runNodeJs(
  createEcmaScriptPlugin({
    name: "protoc-gen-openapi",
    version: VERSION,
    generateTs: generate,
  }),
);
