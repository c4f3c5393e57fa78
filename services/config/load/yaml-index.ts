/**
 * One pass over a composed YAML document that makes every later question cost the length of a
 * path rather than the size of the document (docs/configuration.md "Limits"):
 * - each alias (`*name`) resolved to its anchored node, the last `&name` before it, as the
 *   library resolves it (whose own `Alias.resolve` walks the whole document at each call);
 * - duplicate keys found with one set per mapping (the library's `uniqueKeys` check compares each
 *   key with every earlier one: a mapping of 100,000 keys took minutes);
 * - a key index per mapping, built on first use, for locating an error's path.
 */
import {
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  Scalar,
  visit,
  type Alias,
  type Document,
  type Node,
  type Pair,
  type YAMLMap,
} from "yaml";

/** A problem found by {@link indexDocument}: the node it is about, and what. */
export interface IndexProblem {
  kind: "duplicate-key" | "alias";
  node: Node;
  message: string;
}

/** Lookups over one document (see the module comment). */
export interface YamlIndex {
  /** The node an alias stands for; undefined for an alias to an unknown anchor. */
  target(alias: Alias): Node | undefined;
  /** The pair of `map` (or of a mapping merged into it with `<<`) whose key is `segment`. */
  findInMap(map: YAMLMap, segment: string | number): { pair: Pair; value: unknown } | null;
}

/**
 * A merge key `<<` (unquoted; a quoted "<<" is an ordinary key). The library resolves it to the
 * symbol `Symbol(<<)`, the plain text "<<" as it was before 2.x; the same test as its own.
 */
function isMergeKey(key: unknown): boolean {
  if (!isScalar(key)) return false;
  const v = key.value;
  if (typeof v === "symbol") return v.description === "<<";
  return v === "<<" && (key.type === undefined || key.type === Scalar.PLAIN);
}

/** The library's key equality (a scalar's value, `===`), with a set: duplicate keys of one mapping. */
function duplicateKeys(map: YAMLMap, out: IndexProblem[]): void {
  const seen = new Set<unknown>();
  for (const pair of map.items) {
    if (!isPair(pair) || !isScalar(pair.key)) continue;
    const value = pair.key.value;
    if (seen.has(value)) out.push({ kind: "duplicate-key", node: pair.key, message: "Map keys must be unique" });
    else seen.add(value);
  }
}

/**
 * Indexes a document and reports its duplicate keys, aliases to unknown anchors and recursive
 * aliases (an alias inside the node its anchor names), in document order.
 */
export function indexDocument(doc: Document): { index: YamlIndex; problems: IndexProblem[] } {
  const anchors = new Map<string, Node>();
  const targets = new Map<Alias, Node | undefined>();
  const problems: IndexProblem[] = [];
  visit(doc, {
    Node(_, node, ancestors) {
      if (isAlias(node)) {
        const target = anchors.get(node.source);
        targets.set(node, target);
        if (target === undefined) {
          problems.push({
            kind: "alias",
            node,
            message: `unknown anchor *${node.source}: an alias must refer to an anchor (&${node.source}) set earlier in the same file`,
          });
        } else if (ancestors.some((a) => a === target)) {
          problems.push({
            kind: "alias",
            node,
            message: `recursive alias *${node.source}: it is inside the node its anchor names`,
          });
        }
        return;
      }
      if (node.anchor) anchors.set(node.anchor, node);
      if (isMap(node)) duplicateKeys(node, problems);
    },
  });
  const keys = new WeakMap<YAMLMap, { byKey: Map<string, Pair>; merges: Pair[] }>();
  const keysOf = (map: YAMLMap) => {
    let k = keys.get(map);
    if (k === undefined) {
      k = { byKey: new Map(), merges: [] };
      for (const pair of map.items) {
        if (!isPair(pair)) continue;
        if (isMergeKey(pair.key)) k.merges.push(pair);
        if (isScalar(pair.key) && !k.byKey.has(String(pair.key.value))) k.byKey.set(String(pair.key.value), pair);
      }
      keys.set(map, k);
    }
    return k;
  };
  const resolve = (node: unknown) => (isAlias(node) ? targets.get(node) : node);
  const findInMap = (
    map: YAMLMap,
    segment: string | number,
    seen = new Set<YAMLMap>(),
  ): { pair: Pair; value: unknown } | null => {
    if (seen.has(map)) return null;
    seen.add(map);
    const { byKey, merges } = keysOf(map);
    const own = byKey.get(String(segment));
    if (own !== undefined) return { pair: own, value: own.value };
    for (const pair of merges) {
      for (const source of isSeq(pair.value) ? pair.value.items : [pair.value]) {
        const merged = resolve(source);
        if (!isMap(merged)) continue;
        const found = findInMap(merged, segment, seen);
        if (found !== null) return found;
      }
    }
    return null;
  };
  return {
    index: { target: (alias) => targets.get(alias), findInMap: (map, segment) => findInMap(map, segment) },
    problems,
  };
}
