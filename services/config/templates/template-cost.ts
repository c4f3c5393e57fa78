/**
 * What a template's loops cost, seen in its syntax tree before it runs (docs/workflow-automation.md
 * "Templates", "Bounds"): loops over constant ranges (`range(3000)`, a literal list) multiply when
 * nested, and a template whose constant loops alone take more steps than a render may
 * ({@link TEMPLATE_STEP_LIMIT}) can never render: the configuration is refused at that option
 * instead of every action failing later. A loop over the pull request's values (`commits`,
 * `labels`) counts once here (its length is known only when it runs), so constant loops nested in
 * it still count; macros count where they are defined, not where they are called. What the tree
 * cannot show is bounded when the template renders (bounded-runtime.ts).
 */
import nunjucks from "nunjucks";
import { TEMPLATE_STEP_LIMIT } from "./template-limits.js";

interface AstNode {
  typename: string;
  fields: string[];
  value?: unknown;
  [field: string]: unknown;
}

const isNode = (v: unknown): v is AstNode =>
  typeof v === "object" && v !== null && typeof (v as AstNode).typename === "string";

/** The number a constant argument holds (`3000`, `-1`), or null. */
function constant(v: unknown): number | null {
  if (!isNode(v)) return null;
  if (v.typename === "Literal" && typeof v.value === "number") return v.value;
  if (v.typename === "Neg") {
    const n = constant(v.target);
    return n === null ? null : -n;
  }
  return null;
}

/** How many numbers `range(...)` with constant arguments gives, or null when an argument is not constant. */
function rangeLength(node: AstNode): number | null {
  if (node.typename !== "FunCall" || !isNode(node.name) || node.name.value !== "range") return null;
  const args = ((node.args as AstNode | undefined)?.children as unknown[] | undefined) ?? [];
  const values = args.map(constant);
  if (values.length === 0 || values.length > 3 || values.some((n) => n === null)) return null;
  const [start, stop, step] = values.length === 1 ? [0, values[0]!, 1] : [values[0]!, values[1]!, values[2] ?? 1];
  if (step === 0) return null;
  return Math.max(0, Math.ceil((stop - start) / step));
}

/** How many items a loop over `arr` takes when that is constant, or null. */
function constantLength(arr: unknown): number | null {
  if (!isNode(arr)) return null;
  if (arr.typename === "Array") return ((arr.children as unknown[] | undefined) ?? []).length;
  if (arr.typename === "Literal" && typeof arr.value === "string") return arr.value.length;
  return rangeLength(arr);
}

/** The steps `v` takes at least, counting constant loops (see the module comment). */
function cost(v: unknown): number {
  if (Array.isArray(v)) return v.reduce((sum: number, c) => sum + cost(c), 0);
  if (!isNode(v)) return 0;
  if (v.typename === "For") {
    const n = constantLength(v.arr) ?? 1;
    return cost(v.arr) + n + n * cost(v.body) + cost(v.else_);
  }
  const range = rangeLength(v);
  // A range longer than the limit is refused when it is built, wherever it is used.
  if (range !== null && range > TEMPLATE_STEP_LIMIT) return range;
  return v.fields.reduce((sum, f) => sum + cost(v[f]), 0);
}

/**
 * The problem of a template whose constant loops take more steps than a render may, or null.
 * @throws Error when the template does not parse (the caller checks that first)
 */
export function templateCostProblem(source: string): string | null {
  const root = (nunjucks as unknown as { parser: { parse(s: string): AstNode } }).parser.parse(source);
  const steps = cost(root);
  if (steps <= TEMPLATE_STEP_LIMIT) return null;
  return `its loops over constant ranges take ${steps} steps, over the limit of ${TEMPLATE_STEP_LIMIT} steps (loop iterations and calls) of a template`;
}

/** Nodes that only print text and variables (`{{ author }}`, `{{ head.ref }}`, `{{ "x" }}`). */
const SUBSTITUTION_NODES = new Set(["Root", "NodeList", "Output", "TemplateData", "Symbol", "LookupVal", "Literal"]);

/**
 * Whether `source` only prints text and variables: no loop, call, filter, operator or tag. Its
 * render then costs what its output does (the output limit bounds it), and needs no worker
 * thread. False for a template that does not parse.
 */
export function isSubstitutionOnly(source: string): boolean {
  if (!source.includes("{")) return true;
  const known = substitutionOnly.get(source);
  if (known !== undefined) return known;
  let root: AstNode | null = null;
  try {
    root = (nunjucks as unknown as { parser: { parse(s: string): AstNode } }).parser.parse(source);
  } catch {
    /* not a template: not plain */
  }
  const plain = (v: unknown): boolean => {
    if (Array.isArray(v)) return v.every(plain);
    if (!isNode(v)) return true;
    return SUBSTITUTION_NODES.has(v.typename) && v.fields.every((f) => plain(v[f]));
  };
  const answer = root !== null && plain(root);
  if (substitutionOnly.size >= 500) substitutionOnly.clear();
  substitutionOnly.set(source, answer);
  return answer;
}

/** Answers of {@link isSubstitutionOnly} by template text (a repository's few templates, evaluated every round). */
const substitutionOnly = new Map<string, boolean>();
