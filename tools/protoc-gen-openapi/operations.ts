/**
 * The OpenAPI operation of one REST route (services/gateway/http-rules.ts): its path, its path and
 * query parameters and request body exactly as the transcoder builds the request message
 * (services/gateway/transcoder.ts: body, then path, then query; docs/rest-json.md), its success
 * answer and the error statuses it can answer (docs/errors.md, and docs/api.md "Statuses").
 */
import type { DescField, DescMessage } from "@bufbuild/protobuf";
import { getComments } from "@bufbuild/protoplugin";
import type { RouteShape } from "../../services/gateway/http-rules.js";
import type { JsonSchema, SchemaSet } from "./json-schemas.js";

/** The OpenAPI path of a template: `{var}` for each variable, `*`/`**` outside one as `{segmentN}`, `:verb` kept. */
export function openApiPath(route: RouteShape): string {
  const { segments, verb } = route.template;
  const parts: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const variable = route.variables.find((v) => v.start === i);
    if (variable) {
      parts.push(`{${variable.chain.map((f) => f.name).join(".")}}`);
      i = variable.end === -1 ? segments.length : variable.end - 1;
      continue;
    }
    const s = segments[i];
    parts.push(s.kind === "literal" ? encodeURIComponent(s.value) : `{segment${i}}`);
  }
  return `/${parts.join("/")}${verb ? `:${verb}` : ""}`;
}

/**
 * The error statuses a route can answer (docs/api.md "Statuses"): every route 400 (a URL that does
 * not decode), 403 (credentials, checked first), 409 (the hosting platform reported a conflict: a
 * ref that moved meanwhile, GitHub's answer for an empty repository; or an idempotency key reused),
 * 422 (a bad parameter; an unknown query parameter on any route), 429 (the hosting platform's rate
 * limit), 431 (headers over 16 KiB), 500 and 503 (a database or the forge does not answer); a
 * route with path variables 404 (what the path names does not exist: the repository the forge does
 * not know included); a route with a body 413 (over 4 MiB) and 415 (not JSON, or compressed).
 */
export function errorStatuses(route: RouteShape): string[] {
  const statuses = ["400", "403", "409", "422", "429", "431", "500", "503"];
  if (route.variables.length > 0) statuses.push("404");
  if (route.body !== null) statuses.push("413", "415");
  return statuses.sort();
}

/** The OpenAPI operation object of a route; `operationId` is unique per (method, binding). */
export function operation(route: RouteShape, schemas: SchemaSet, operationId: string): JsonSchema {
  const { method } = route;
  const comment = getComments(method).leading?.trim().replace(/\n /g, "\n");
  const parameters = [...pathParameters(route, schemas), ...queryParameters(route, schemas)];
  const op: JsonSchema = {
    operationId,
    tags: [route.service.name],
    summary: `${route.service.name}.${method.name}`,
    ...(comment ? { description: comment } : {}),
    "x-rpc": `${route.service.typeName}/${method.name}`,
    ...(parameters.length ? { parameters } : {}),
  };
  const body = requestBody(route, schemas);
  if (body) op.requestBody = body;
  const responses: Record<string, unknown> = {};
  if (method.methodKind === "server_streaming")
    // Server-sent events (docs/api.md "Streams"): each event's `data` is one message in REST JSON,
    // described by `x-event-data` (OpenAPI 3.1 has no schema for the items of a stream).
    responses["200"] = {
      description: "A stream of server-sent events; each event's data is one message in REST JSON.",
      content: { "text/event-stream": { schema: { type: "string" } } },
      "x-event-data": schemas.ref(method.output, "response"),
    };
  else if (method.output.typeName === "google.protobuf.Empty") responses["204"] = { description: "Done (no body)." };
  else
    responses[String(route.successStatus)] = {
      description: "The answer, in REST JSON (docs/rest-json.md).",
      content: { "application/json": { schema: schemas.ref(method.output, "response") } },
    };
  for (const status of errorStatuses(route)) responses[status] = { $ref: `#/components/responses/${status}` };
  op.responses = responses;
  return op;
}

function pathParameters(route: RouteShape, schemas: SchemaSet): JsonSchema[] {
  const out: JsonSchema[] = route.variables.map((v) => {
    const field = v.chain.at(-1)!;
    const rest = v.end === -1 || v.end - v.start > 1;
    return {
      name: v.chain.map((f) => f.name).join("."),
      in: "path",
      required: true,
      ...describe(field, rest ? "spans several path segments (may contain /)" : ""),
      schema: schemas.parameterSchema(field),
    };
  });
  route.template.segments.forEach((s, i) => {
    const bound = route.variables.some((v) => i >= v.start && (v.end === -1 || i < v.end));
    if (s.kind !== "literal" && !bound)
      out.push({ name: `segment${i}`, in: "path", required: true, schema: { type: "string" } });
  });
  return out;
}

/** What the query may set: every field the path and body leave, nested messages as dotted names. */
function queryParameters(route: RouteShape, schemas: SchemaSet): JsonSchema[] {
  if (route.body === "*") return [];
  const taken = new Set(route.pathFields);
  if (Array.isArray(route.body)) taken.add(route.body[0].name);
  const out: JsonSchema[] = [];
  const visit = (desc: DescMessage, prefix: string, seen: ReadonlySet<string>) => {
    for (const field of desc.fields) {
      if (prefix === "" && taken.has(field.name)) continue;
      const name = prefix + field.name;
      if (field.fieldKind === "map") continue;
      const message = field.fieldKind === "message" || (field.fieldKind === "list" && field.listKind === "message");
      const typeName = field.message?.typeName;
      if (message && typeName !== "google.protobuf.Timestamp") {
        const wellKnown = typeName!.startsWith("google.protobuf.");
        if (field.fieldKind === "message" && !wellKnown && !seen.has(typeName!))
          visit(field.message!, `${name}.`, new Set([...seen, typeName!]));
        continue;
      }
      const schema = schemas.parameterSchema(field);
      out.push({
        name,
        in: "query",
        ...(schemas.rule(field)?.required ? { required: true } : {}),
        ...describe(field, field.fieldKind === "list" ? "repeat the parameter for several values" : ""),
        schema,
        ...(field.fieldKind === "list" ? { style: "form", explode: true } : {}),
      });
    }
  };
  visit(route.method.input, "", new Set([route.method.input.typeName]));
  return out;
}

function requestBody(route: RouteShape, schemas: SchemaSet): JsonSchema | undefined {
  if (route.body === null) return undefined;
  // An upload (a google.api.HttpBody body): the raw bytes of its media types (docs/api.md "Uploads").
  if (route.upload)
    return {
      required: true,
      description: `At most ${route.upload.maxBytes} bytes as sent${route.upload.encodings.length ? ` (Content-Encoding: ${route.upload.encodings.join(", ")} accepted; ${route.upload.maxDecodedBytes} bytes decoded at most)` : ""}.`,
      content: Object.fromEntries(
        route.upload.mediaTypes.map((m) => [m, { schema: { type: "string", format: "binary" } }]),
      ),
    };
  const schema =
    route.body === "*"
      ? schemas.objectSchema(route.method.input, "request", route.pathFields)
      : schemas.fieldSchema(route.body.at(-1)!, "request");
  const required = route.body === "*" ? false : schemas.rule(route.body.at(-1)!)?.required === true;
  return { required, content: { "application/json": { schema } } };
}

function describe(field: DescField, extra: string): { description?: string } {
  const text = [getComments(field).leading?.trim(), extra].filter(Boolean).join("; ");
  return text ? { description: text } : {};
}
