/**
 * The OpenAPI 3.1 document of the REST surface, built from the same descriptors and the same route
 * reading as the transcoder (services/gateway/http-rules.ts): one operation per google.api.http
 * binding, the REST JSON schemas of docs/rest-json.md, the one error body of docs/errors.md and
 * bearer authentication (docs/auth.md). Deterministic: paths in template order, components by name.
 */
import type { DescService } from "@bufbuild/protobuf";
import { describeRoutes, type HttpExtension, type RouteExtensions } from "../../services/gateway/http-rules.js";
import { errorResponses, errorSchemas } from "./error-responses.js";
import { SchemaSet, type FieldRuleExtension, type JsonSchema } from "./json-schemas.js";
import { openApiPath, operation } from "./operations.js";

/** What the document is built from: the services and the two extensions their options carry. */
export interface DocumentInput {
  services: readonly DescService[];
  http: HttpExtension;
  fieldRule: FieldRuleExtension | undefined;
  /** `(yardmaster.v1.upload)` and `(yardmaster.v1.success_status)`, when the inputs declare them. */
  routeExtensions?: RouteExtensions;
  /** info.version */
  version: string;
}

/**
 * The document. @throws RouteCompileError for a rule the transcoder would refuse; Error when two
 * routes would share an OpenAPI path and method.
 */
export function buildDocument(input: DocumentInput): JsonSchema {
  const schemas = new SchemaSet(input.fieldRule);
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const ids = new Map<string, number>();
  for (const route of describeRoutes(input.services, input.http, input.routeExtensions)) {
    const path = openApiPath(route);
    const verb = route.httpMethod.toLowerCase();
    const item = (paths[path] ??= {});
    if (item[verb]) throw new Error(`two routes are ${route.httpMethod} ${path} in OpenAPI terms`);
    const base = `${route.service.name}_${route.method.name}`;
    const n = (ids.get(base) ?? 0) + 1;
    ids.set(base, n);
    item[verb] = operation(route, schemas, n === 1 ? base : `${base}_${n}`);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Yardmaster REST API",
      version: input.version,
      description:
        "The REST surface of Yardmaster, generated from the protos' google.api.http rules (the same rules the " +
        "server's transcoder serves). JSON rules: docs/rest-json.md; errors: docs/errors.md; authentication: " +
        "docs/auth.md. The same RPCs are served over Connect, gRPC and gRPC-Web on the same port.",
      license: { name: "Apache-2.0", identifier: "Apache-2.0" },
    },
    security: [{ bearer: [] }],
    tags: [...new Set(input.services.filter((s) => hasRoutes(paths, s)).map((s) => s.name))].map((name) => ({ name })),
    paths: sortKeys(paths),
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "The admin key, an issued token or a platform token (docs/auth.md).",
        },
      },
      schemas: sortKeys({ ...schemas.components, ...errorSchemas() }),
      headers: {
        "x-request-id": {
          description: "The request id, also in the error body and the server log.",
          schema: { type: "string" },
        },
        "retry-after": { description: "Seconds to wait before trying again.", schema: { type: "integer" } },
      },
      responses: errorResponses(),
    },
  };
}

function hasRoutes(paths: Record<string, Record<string, JsonSchema>>, service: DescService): boolean {
  return Object.values(paths).some((item) =>
    Object.values(item).some((op) => (op.tags as string[])[0] === service.name),
  );
}

function sortKeys<T>(obj: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(obj).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
