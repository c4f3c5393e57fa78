/**
 * Compiles every google.api.http rule of the served services into a route trie, at boot
 * (vanguard-go router.go). Each rule (and each additional binding) is parsed, every variable and
 * the `body` field path are resolved against the request message, and a duplicate
 * (method, template) pair is refused. Any problem stops the boot with an error naming the RPC and
 * the rule: a bad annotation never surfaces at request time.
 */
import { getOption, hasOption, type DescMethod, type DescService } from "@bufbuild/protobuf";
import { http } from "../../gen/google/api/annotations_pb.js";
import type { HttpRule } from "../../gen/google/api/http_pb.js";
import { chainName, resolveFieldPath, type FieldChain } from "./field-path.js";
import { parsePathTemplate, type PathTemplateError, type PathTemplate } from "./path-template.js";
import { DuplicateRouteError, RouteTrie } from "./route-trie.js";

/** A service and its implementation (any subset of its methods; the rest answer UNIMPLEMENTED). */
export interface ServiceBinding {
  service: DescService;
  impl: Record<string, unknown>;
}

/** One HTTP binding of one RPC, ready to serve. */
export interface CompiledRoute {
  service: DescService;
  method: DescMethod;
  httpMethod: string;
  template: PathTemplate;
  /** Path variables: the request fields they fill and the template segments they bind. */
  variables: { chain: FieldChain; start: number; end: number }[];
  /** "*" = the whole request; a chain = that field; null = no body allowed. */
  body: "*" | FieldChain | null;
  /** Proto names of the top-level fields bound by the path (not settable from the query). */
  pathFields: ReadonlySet<string>;
}

/** A google.api.http rule that cannot be served. */
export class RouteCompileError extends Error {
  override readonly name = "RouteCompileError";
}

/** Rules of a method: the top rule and its additional bindings, as [HTTP method, template, rule]. */
function bindingsOf(method: DescMethod): [string, string, HttpRule][] {
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
 * Compiles the routes of all bindings.
 * @throws RouteCompileError naming the RPC and the rule for a bad template, an unknown field, a
 * variable bound to a non-scalar field, a bad body path, a response_body (unsupported) or a duplicate.
 */
export function compileRoutes(bindings: ServiceBinding[]): { trie: RouteTrie<CompiledRoute>; routes: CompiledRoute[] } {
  const trie = new RouteTrie<CompiledRoute>();
  const routes: CompiledRoute[] = [];
  for (const { service } of bindings) {
    for (const method of service.methods) {
      for (const [httpMethod, path, rule] of bindingsOf(method)) {
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
        let body: CompiledRoute["body"] = null;
        if (rule.body === "*") body = "*";
        else if (rule.body) {
          const chain = resolveFieldPath(method.input, rule.body.split("."), false);
          if (typeof chain === "string") fail(`body "${rule.body}": ${chain}`);
          body = chain as FieldChain;
        }
        if (rule.responseBody) fail("response_body is not supported");
        if (body && (httpMethod === "GET" || httpMethod === "DELETE")) fail(`a ${httpMethod} rule cannot have a body`);
        const route: CompiledRoute = {
          service,
          method,
          httpMethod,
          template,
          variables,
          body,
          pathFields: new Set(variables.map((v) => v.chain[0].name)),
        };
        try {
          trie.add(httpMethod, template, route, (r) => `${r.method.parent.typeName}.${r.method.name}`);
        } catch (e) {
          if (e instanceof DuplicateRouteError) throw new RouteCompileError(e.message);
          throw e;
        }
        routes.push(route);
      }
    }
  }
  return { trie, routes };
}
