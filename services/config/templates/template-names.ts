/**
 * The names a template reads and the filters it calls, from its syntax tree (Nunjucks' parser):
 * variables bound inside the template (`{% set %}`, `{% for %}` targets, macro arguments) are not
 * counted. What the loader checks templates with (template-issues.ts).
 */
import nunjucks from "nunjucks";

interface AstNode {
  typename: string;
  fields: string[];
  value?: unknown;
  children?: AstNode[];
  [field: string]: unknown;
}

const isNode = (v: unknown): v is AstNode =>
  typeof v === "object" && v !== null && typeof (v as AstNode).typename === "string";

function symbolsIn(v: unknown, out: Set<string>): void {
  if (!isNode(v)) return;
  if (v.typename === "Symbol") out.add(String(v.value));
  for (const c of v.children ?? []) symbolsIn(c, out);
}

/**
 * The free variables and the filters of `source`.
 * @throws Error when the template does not parse (the caller reports it)
 */
export function templateNames(source: string): { variables: Set<string>; filters: Set<string> } {
  const root = (nunjucks as unknown as { parser: { parse(s: string): AstNode } }).parser.parse(source);
  const variables = new Set<string>();
  const filters = new Set<string>();
  const bound = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!isNode(v)) return;
    switch (v.typename) {
      case "Symbol":
        if (!bound.has(String(v.value))) variables.add(String(v.value));
        return;
      case "Filter":
      case "FilterAsync":
        symbolsIn(v.name, filters);
        return walk(v.args);
      case "Is":
        return walk(v.left);
      case "For":
      case "AsyncEach":
      case "AsyncAll":
        symbolsIn(v.name, bound);
        for (const f of v.fields) if (f !== "name") walk(v[f]);
        return;
      case "Set":
        symbolsIn(v.targets, bound);
        for (const t of (v.targets as AstNode[] | undefined) ?? []) symbolsIn(t, bound);
        return walk([v.value, v.body]);
      case "Macro":
        symbolsIn(v.args, bound);
        return walk(v.body);
      case "LookupVal":
        return walk([v.target, isNode(v.val) && v.val.typename === "Symbol" ? null : v.val]);
      default:
        for (const f of v.fields) walk(v[f]);
        for (const c of v.children ?? []) walk(c);
    }
  };
  walk(root);
  return { variables, filters };
}
