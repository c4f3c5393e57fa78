/**
 * Counts the nodes, aliases and nesting of a parsed YAML text before it is composed into a
 * document (docs/configuration.md "Limits"). The `yaml` library's parser is iterative and linear in
 * the text; composing, converting and validating are recursive and grow with the nodes, so the
 * limits are checked here, on the parser's tokens, with an explicit stack: a text of 200,000 `[`
 * is refused at its 65th bracket, not after the library ran out of stack.
 */
import type { CST } from "yaml";
import { MAX_ALIASES, MAX_DEPTH, MAX_NODES } from "./limits.js";

/** A limit the text goes over: where (offset in the text) and what. */
export interface LimitViolation {
  offset: number;
  message: string;
}

type Item = { start?: CST.SourceToken[]; key?: CST.Token | null; sep?: CST.SourceToken[]; value?: CST.Token };

const SCALARS = new Set(["scalar", "single-quoted-scalar", "double-quoted-scalar", "block-scalar"]);

/**
 * The first limit the tokens go over, in document order, or null.
 * @param tokens the top-level tokens of `new Parser().parse(text)`
 */
export function firstLimitViolation(tokens: readonly CST.Token[]): LimitViolation | null {
  let nodes = 0;
  let aliases = 0;
  // Pending tokens with their depth (the number of collections around them), last on top.
  const stack: [CST.Token, number][] = [];
  const pushItems = (items: readonly Item[], depth: number) => {
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i];
      if (item.value) stack.push([item.value, depth]);
      if (item.key) stack.push([item.key, depth]);
    }
  };
  for (let i = tokens.length - 1; i >= 0; i--) stack.push([tokens[i], 0]);
  while (stack.length > 0) {
    const [token, depth] = stack.pop()!;
    switch (token.type) {
      case "document":
        if (token.value) stack.push([token.value, depth]);
        continue;
      case "block-map":
      case "block-seq":
      case "flow-collection":
        if (depth + 1 > MAX_DEPTH) {
          return {
            offset: token.offset,
            message: `the mappings and lists nest more than ${MAX_DEPTH} levels deep: flatten the structure`,
          };
        }
        pushItems(token.items as readonly Item[], depth + 1);
        break;
      case "alias":
        if (++aliases > MAX_ALIASES) {
          return {
            offset: token.offset,
            message: `the file has more than ${MAX_ALIASES} aliases (*name): write the values out, or use fewer aliases`,
          };
        }
        break;
      default:
        if (!SCALARS.has(token.type)) continue;
    }
    if (++nodes > MAX_NODES) {
      return {
        offset: token.offset,
        message: `the file has more than ${MAX_NODES} YAML nodes (keys, values, list items, mappings and lists): a configuration this large is not read`,
      };
    }
  }
  return null;
}
