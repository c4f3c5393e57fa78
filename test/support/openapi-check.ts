/**
 * Checks real REST answers against the served OpenAPI document (gen/openapi.json): the route's
 * operation must declare the status, and the body must validate (ajv, JSON Schema 2020-12) against
 * the schema the document gives for it. Used by e2e tests on every answer they read.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import document from "../../gen/openapi.json" with { type: "json" };

type Operation = { responses: Record<string, { $ref?: string; content?: unknown }> };

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
for (const f of ["int32", "int64", "float", "double"]) ajv.addFormat(f, true);
ajv.addSchema(document, "openapi");

const routes = Object.entries(document.paths as Record<string, Record<string, Operation>>).map(([path, item]) => ({
  path,
  item,
  pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`),
}));
const validators = new Map<string, ValidateFunction>();

const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");

/**
 * What is wrong with an answer of `method url` in terms of the document: an empty list when it
 * conforms, or when the URL names no documented route (an unknown path, /healthz) or the method
 * is not the route's (405).
 */
export function openApiProblems(method: string, url: string, status: number, body: unknown): string[] {
  const path = new URL(url, "http://x").pathname;
  const route = routes.find((r) => r.pattern.test(path));
  const op = route?.item[method.toLowerCase()];
  if (!route || !op) return [];
  const declared = op.responses[String(status)];
  if (!declared) return [`${method} ${route.path}: status ${status} is not declared`];
  const key = `${method} ${route.path} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    const ref = declared.$ref
      ? `openapi${declared.$ref}/content/application~1json/schema`
      : `openapi#/${pointer("paths", route.path, method.toLowerCase(), "responses", String(status))}/content/application~1json/schema`;
    if (status === 204) return body === undefined || body === "" ? [] : [`${key}: a 204 answer has a body`];
    validate = ajv.compile({ $ref: ref });
    validators.set(key, validate);
  }
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${key}: ${e.instancePath || "(body)"} ${e.message}`);
}
