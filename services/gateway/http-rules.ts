/**
 * The routes of google.api.http rules (proto/google/api/http.proto), read from descriptors and
 * checked, with nothing generated imported at run time: the transcoder (compile-routes.ts) and the
 * OpenAPI generator (tools/protoc-gen-openapi/, run while gen/ is being written) both read the
 * rules through {@link describeRoutes}, so the served routes and the published document cannot
 * disagree. Each rule (and each additional binding) is parsed, every variable and the `body` field
 * path are resolved against the request message (vanguard-go router.go).
 */
import { getOption, hasOption, type DescMethod, type DescService } from "@bufbuild/protobuf";
import type { GenExtension } from "@bufbuild/protobuf/codegenv2";
import type { MethodOptions } from "@bufbuild/protobuf/wkt";
import type { HttpRule } from "../../gen/google/api/http_pb.js";
import { chainName, resolveFieldPath, type FieldChain } from "./field-path.js";
import { parsePathTemplate, type PathTemplate, type PathTemplateError } from "./path-template.js";

/** The `google.api.http` extension of MethodOptions (gen/google/api/annotations_pb.ts, or a plugin's registry). */
export type HttpExtension = GenExtension<MethodOptions, HttpRule>;

/** An RPC's upload rule (`(yardmaster.v1.upload)`, proto/yardmaster/v1/common.proto), plain. */
export interface UploadShape {
  mediaTypes: string[];
  encodings: string[];
  maxBytes: number;
  maxDecodedBytes: number;
}

/**
 * The method options beside `google.api.http` that change a route: `(yardmaster.v1.upload)` and
 * `(yardmaster.v1.success_status)` (gen/yardmaster/v1/common_pb.ts, or a plugin's registry).
 */
export interface RouteExtensions {
  // biome-ignore lint/suspicious/noExplicitAny: the generated UploadRule message, read by field name (no gen/ import here)
  upload?: GenExtension<MethodOptions, any>;
  successStatus?: GenExtension<MethodOptions, number>;
}

/** The message type whose body field makes a route an upload (proto/google/api/httpbody.proto). */
export const HTTP_BODY_TYPE = "google.api.HttpBody";

/** One HTTP binding of one RPC: its method, template, path variables and body. */
export interface RouteShape {
  service: DescService;
  method: DescMethod;
  /** Upper case: GET, POST, PUT, PATCH, DELETE, or a custom rule's kind. */
  httpMethod: string;
  template: PathTemplate;
  /** Path variables: the request fields they fill and the template segments they bind. */
  variables: { chain: FieldChain; start: number; end: number }[];
  /** "*" = the whole request; a chain = that field; null = no body allowed. */
  body: "*" | FieldChain | null;
  /** Proto names of the top-level fields bound by the path (not settable from the query). */
  pathFields: ReadonlySet<string>;
  /** The upload rule when the body is a google.api.HttpBody field (raw bytes, not JSON); else null. */
  upload: UploadShape | null;
  /** The status of a successful answer with a body (200 unless the RPC says otherwise). */
  successStatus: number;
}

/** A google.api.http rule that cannot be served. */
export class RouteCompileError extends Error {
  override readonly name = "RouteCompileError";
}

/** Rules of a method: the top rule and its additional bindings, as [HTTP method, template, rule]. */
function bindingsOf(method: DescMethod, http: HttpExtension): [string, string, HttpRule][] {
  if (!hasOption(method, http)) return [];
  const top = getOption(method, http);
  const out: [string, string, HttpRule][] = [];
  for (const rule of [top, ...top.additionalBindings]) {
    const p = rule.pattern;
    if (p.case === undefined) continue;
    if (p.case === "custom") out.push([p.value.kind.toUpperCase(), p.value.path, rule]);
    else out.push([p.case.toUpperCase(), p.value, rule]);
  }
  return out;
}

/**
 * The routes of every rule of `services`, in service, method and binding order.
 * @throws RouteCompileError naming the RPC and the rule for a bad template, an unknown field, a
 * variable bound to a non-scalar field, a bad body path, a response_body (unsupported) or a body on
 * GET or DELETE.
 */
export function describeRoutes(
  services: readonly DescService[],
  http: HttpExtension,
  extensions: RouteExtensions = {},
): RouteShape[] {
  const routes: RouteShape[] = [];
  for (const service of services) {
    for (const method of service.methods) {
      for (const [httpMethod, path, rule] of bindingsOf(method, http)) {
        routes.push(describeRoute(service, method, httpMethod, path, rule, extensions));
      }
    }
  }
  return routes;
}

function describeRoute(
  service: DescService,
  method: DescMethod,
  httpMethod: string,
  path: string,
  rule: HttpRule,
  extensions: RouteExtensions,
): RouteShape {
  const where = `${method.parent.typeName}.${method.name} (${httpMethod} ${path})`;
  const fail = (reason: string): never => {
    throw new RouteCompileError(`google.api.http rule of ${where}: ${reason}`);
  };
  // A server-streaming RPC is served as server-sent events on GET (sse.ts).
  if (method.methodKind !== "unary" && !(method.methodKind === "server_streaming" && httpMethod === "GET"))
    fail("only unary RPCs, and server-streaming RPCs on GET, can have an HTTP rule");
  let template: PathTemplate;
  try {
    template = parsePathTemplate(path);
  } catch (e) {
    throw new RouteCompileError(`google.api.http rule of ${where}: ${(e as PathTemplateError).message}`);
  }
  const variables = template.variables.map((v) => {
    const chain = resolveFieldPath(method.input, v.fieldPath, false);
    if (typeof chain === "string") return fail(`variable {${v.fieldPath.join(".")}}: ${chain}`);
    const last = chain.at(-1)!;
    if (last.fieldKind !== "scalar" && last.fieldKind !== "enum")
      fail(`variable {${chainName(chain)}} must be a singular scalar or enum field`);
    return { chain, start: v.start, end: v.end };
  });
  let body: RouteShape["body"] = null;
  if (rule.body === "*") body = "*";
  else if (rule.body) {
    const chain = resolveFieldPath(method.input, rule.body.split("."), false);
    if (typeof chain === "string") fail(`body "${rule.body}": ${chain}`);
    body = chain as FieldChain;
  }
  if (rule.responseBody) fail("response_body is not supported");
  if (body && (httpMethod === "GET" || httpMethod === "DELETE")) fail(`a ${httpMethod} rule cannot have a body`);
  const raw = Array.isArray(body) && body.at(-1)!.message?.typeName === HTTP_BODY_TYPE;
  const uploadRule =
    extensions.upload && hasOption(method, extensions.upload) ? getOption(method, extensions.upload) : null;
  if (raw && (body as FieldChain).length !== 1) fail(`a ${HTTP_BODY_TYPE} body must be a top-level field`);
  if (raw && !uploadRule) fail(`a ${HTTP_BODY_TYPE} body needs the RPC's (yardmaster.v1.upload) rule`);
  if (!raw && uploadRule) fail(`(yardmaster.v1.upload) needs a body field of type ${HTTP_BODY_TYPE}`);
  const upload: UploadShape | null = uploadRule
    ? {
        mediaTypes: [...uploadRule.mediaTypes].map((m: string) => m.toLowerCase()),
        encodings: [...uploadRule.encodings].map((e: string) => e.toLowerCase()),
        maxBytes: Number(uploadRule.maxBytes),
        maxDecodedBytes: Number(uploadRule.maxDecodedBytes),
      }
    : null;
  if (upload && (upload.mediaTypes.length === 0 || upload.maxBytes <= 0 || upload.maxDecodedBytes < upload.maxBytes))
    fail("(yardmaster.v1.upload) needs media types, max_bytes > 0 and max_decoded_bytes >= max_bytes");
  const status =
    extensions.successStatus && hasOption(method, extensions.successStatus)
      ? getOption(method, extensions.successStatus)
      : 200;
  return {
    service,
    method,
    httpMethod,
    template,
    variables,
    body,
    pathFields: new Set(variables.map((v) => v.chain[0].name)),
    upload,
    successStatus: status,
  };
}
