/**
 * Compiles every google.api.http rule of the served services into a route trie, at boot
 * (vanguard-go router.go). The rules are read and checked by http-rules.ts (shared with the
 * OpenAPI generator); a duplicate (method, template) pair is refused here. Any problem stops the
 * boot with an error naming the RPC and the rule: a bad annotation never surfaces at request time.
 */
import type { DescService } from "@bufbuild/protobuf";
import { http } from "../../gen/google/api/annotations_pb.js";
import { success_status, upload } from "../../gen/yardmaster/v1/common_pb.js";
import { describeRoutes, RouteCompileError, type RouteShape } from "./http-rules.js";
import { DuplicateRouteError, RouteTrie } from "./route-trie.js";

export { RouteCompileError };

/** A service and its implementation (any subset of its methods; the rest answer UNIMPLEMENTED). */
export interface ServiceBinding {
  service: DescService;
  impl: Record<string, unknown>;
}

/** One HTTP binding of one RPC, ready to serve. */
export type CompiledRoute = RouteShape;

/**
 * Compiles the routes of all bindings.
 * @throws RouteCompileError naming the RPC and the rule for a bad template, an unknown field, a
 * variable bound to a non-scalar field, a bad body path, a response_body (unsupported) or a duplicate.
 */
export function compileRoutes(bindings: ServiceBinding[]): { trie: RouteTrie<CompiledRoute>; routes: CompiledRoute[] } {
  const trie = new RouteTrie<CompiledRoute>();
  const routes = describeRoutes(
    bindings.map((b) => b.service),
    http,
    { upload, successStatus: success_status },
  );
  for (const route of routes) {
    try {
      trie.add(route.httpMethod, route.template, route, (r) => `${r.method.parent.typeName}.${r.method.name}`);
    } catch (e) {
      if (e instanceof DuplicateRouteError) throw new RouteCompileError(e.message);
      throw e;
    }
  }
  return { trie, routes };
}
