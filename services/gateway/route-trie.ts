/**
 * A trie of compiled path templates, keyed by segment (vanguard-go router.go). Each step tries the
 * literal child, then `*`, then `**` (which eats the rest of the path). A leaf maps the custom verb
 * and the HTTP method to a route. A path that matches a template but not the method yields the
 * allowed methods (405 with `Allow`); no match at all yields nothing (404).
 */
import type { PathTemplate } from "./path-template.js";

interface Node<R> {
  literal: Map<string, Node<R>>;
  single?: Node<R>;
  rest?: Node<R>;
  /** verb -> HTTP method -> route */
  endpoints: Map<string, Map<string, R>>;
}

const newNode = <R>(): Node<R> => ({ literal: new Map(), endpoints: new Map() });

/** A successful match: the route and the raw path segments (percent-decoded). */
export interface RouteMatch<R> {
  route: R;
  segments: string[];
}

/**
 * The result of {@link RouteTrie.match}: the route found; a path bound only to other methods, with
 * those methods (405 with `Allow`); or no route (404).
 */
export type MatchResult<R> =
  | { kind: "found"; match: RouteMatch<R> }
  | { kind: "method_not_allowed"; allow: string[] }
  | { kind: "not_found" };

/** Thrown when two rules bind the same method to the same template. */
export class DuplicateRouteError extends Error {
  override readonly name = "DuplicateRouteError";
}

/**
 * The trie of the file header, mapping (path template, custom verb, HTTP method) to a route `R`;
 * HEAD falls back to GET.
 */
export class RouteTrie<R> {
  private readonly root: Node<R> = newNode();

  /**
   * Adds a route.
   * @throws DuplicateRouteError when the method and template are already bound (`describe` names both).
   */
  add(method: string, template: PathTemplate, route: R, describe: (r: R) => string): void {
    let node = this.root;
    for (const seg of template.segments) {
      if (seg.kind === "literal") {
        let next = node.literal.get(seg.value);
        if (!next) node.literal.set(seg.value, (next = newNode()));
        node = next;
      } else if (seg.kind === "single") {
        node = node.single ??= newNode();
      } else {
        node = node.rest ??= newNode();
      }
    }
    let byMethod = node.endpoints.get(template.verb);
    if (!byMethod) node.endpoints.set(template.verb, (byMethod = new Map()));
    const existing = byMethod.get(method);
    if (existing) {
      throw new DuplicateRouteError(
        `${method} ${template.source} is bound twice: by ${describe(existing)} and by ${describe(route)}`,
      );
    }
    byMethod.set(method, route);
  }

  /** Matches a request path (without query string) and method. */
  match(method: string, path: string): MatchResult<R> {
    if (!path.startsWith("/")) return { kind: "not_found" };
    const raw = path.slice(1).split("/");
    let segments: string[];
    try {
      segments = raw.map(decodeURIComponent);
    } catch {
      return { kind: "not_found" };
    }
    const allow = new Set<string>();
    const last = segments.at(-1)!;
    const colon = last.lastIndexOf(":");
    if (colon > 0) {
      const withoutVerb = [...segments.slice(0, -1), last.slice(0, colon)];
      const found = this.search(this.root, withoutVerb, 0, last.slice(colon + 1), method, allow);
      if (found) return { kind: "found", match: { route: found, segments: withoutVerb } };
    }
    const found = this.search(this.root, segments, 0, "", method, allow);
    if (found) return { kind: "found", match: { route: found, segments } };
    return allow.size ? { kind: "method_not_allowed", allow: [...allow].sort() } : { kind: "not_found" };
  }

  private search(
    node: Node<R>,
    segs: string[],
    i: number,
    verb: string,
    method: string,
    allow: Set<string>,
  ): R | undefined {
    if (i === segs.length) return this.leaf(node, verb, method, allow);
    const lit = node.literal.get(segs[i]);
    const viaLiteral = lit && this.search(lit, segs, i + 1, verb, method, allow);
    if (viaLiteral) return viaLiteral;
    const viaSingle = node.single && segs[i] !== "" && this.search(node.single, segs, i + 1, verb, method, allow);
    if (viaSingle) return viaSingle;
    return node.rest && this.leaf(node.rest, verb, method, allow);
  }

  private leaf(node: Node<R>, verb: string, method: string, allow: Set<string>): R | undefined {
    const byMethod = node.endpoints.get(verb);
    if (!byMethod) return undefined;
    const route = byMethod.get(method) ?? (method === "HEAD" ? byMethod.get("GET") : undefined);
    if (route) return route;
    for (const m of byMethod.keys()) allow.add(m);
    return undefined;
  }
}
