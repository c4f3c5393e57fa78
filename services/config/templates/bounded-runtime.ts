/**
 * Counting the work of a Nunjucks render (template-limits.ts). Nunjucks compiles a template to a
 * JavaScript function that calls its `runtime` module for every loop (`fromIterator`), call
 * (`callWrap`) and output (`suppressValue`); those three are wrapped once here to charge the
 * budget of the render in progress, if any. `range` is replaced by one that refuses, before
 * building it, a list longer than the steps left, and every filter is wrapped: numeric widths
 * (`center`, `indent`, `batch`) and `replace`'s growth are checked before it runs, any result
 * after. A render is synchronous, so one budget at a time is active; none outside {@link withBudget}.
 */
import nunjucks from "nunjucks";
import { RenderBudget, TEMPLATE_WRITE_LIMIT, TemplateLimitError } from "./template-limits.js";

let active: RenderBudget | null = null;

type Runtime = {
  fromIterator(arr: unknown): unknown;
  callWrap(obj: unknown, name: string, context: unknown, args: unknown[]): unknown;
  suppressValue(val: unknown, autoescape: boolean): unknown;
};

let installed = false;

/** Wraps the runtime's loop, call and output entries (once per thread). */
function installRuntimeHooks(): void {
  if (installed) return;
  installed = true;
  const runtime = (nunjucks as unknown as { runtime: Runtime }).runtime;
  const { fromIterator, callWrap, suppressValue } = runtime;
  runtime.fromIterator = (arr) => {
    const out = fromIterator(arr);
    const length = (out as { length?: unknown } | null)?.length;
    if (active !== null && typeof length === "number") active.step(length);
    return out;
  };
  runtime.callWrap = (obj, name, context, args) => {
    active?.step(1);
    return callWrap(obj, name, context, args);
  };
  runtime.suppressValue = (val, autoescape) => {
    const out = suppressValue(val, autoescape);
    if (active !== null && typeof out === "string") active.write(out.length);
    return out;
  };
}

/** Jinja2's `range`, refusing a list longer than the steps left before it is built. */
function boundedRange(start: number, stop?: number, step?: number): number[] {
  if (stop === undefined) [start, stop, step] = [0, start, 1];
  else if (!step) step = 1;
  const count = Math.max(0, Math.ceil((Number(stop) - Number(start)) / Number(step)));
  if (!Number.isFinite(count)) throw new TemplateLimitError("range() is given a bound that is not a finite number");
  // Over the steps left: charged now, so that the refusal is the step limit's.
  if (active !== null && !active.canStep(count)) active.step(count);
  return Array.from({ length: count }, (_, i) => Number(start) + i * Number(step));
}

/** The argument index of a width each amplifying filter takes. */
const WIDTHS: Readonly<Record<string, number>> = { center: 1, indent: 1, batch: 1 };

const tooLarge = (what: string) =>
  new TemplateLimitError(`${what} is over ${TEMPLATE_WRITE_LIMIT} characters, the limit of a template`);

/** The characters `replace(str, old, new)` would give, without building them. */
function replacedLength(str: unknown, old: unknown, replacement: unknown): number {
  if (typeof str !== "string" || typeof old !== "string") return 0;
  const added = String(replacement ?? "").length;
  const occurrences = old === "" ? str.length + 1 : str.split(old).length - 1;
  return str.length + occurrences * (added - old.length);
}

function boundedFilter(name: string, filter: (...args: unknown[]) => unknown): (...args: unknown[]) => unknown {
  return function (this: unknown, ...args: unknown[]) {
    const width = WIDTHS[name];
    if (width !== undefined && Number(args[width]) > TEMPLATE_WRITE_LIMIT) throw tooLarge(`${name}()'s width`);
    if (name === "replace" && replacedLength(args[0], args[1], args[2]) > TEMPLATE_WRITE_LIMIT)
      throw tooLarge("replace()'s result");
    const out = filter.apply(this, args);
    const length = (out as { length?: unknown } | null)?.length;
    if (typeof length === "number" && length > TEMPLATE_WRITE_LIMIT) throw tooLarge(`${name}()'s result`);
    return out;
  };
}

/** Bounds `environment`: its `range` and its filters (call after adding the environment's own filters). */
export function boundEnvironment(environment: nunjucks.Environment): void {
  installRuntimeHooks();
  environment.addGlobal("range", boundedRange);
  const filters = (environment as unknown as { filters: Record<string, (...args: unknown[]) => unknown> }).filters;
  for (const [name, filter] of Object.entries(filters)) filters[name] = boundedFilter(name, filter);
}

/**
 * Runs `render` with a fresh budget.
 * @throws TemplateLimitError when the render goes over a limit (Nunjucks may wrap it: callers read the message)
 */
export function withBudget<T>(render: () => T): T {
  const outer = active;
  active = new RenderBudget();
  try {
    return render();
  } finally {
    active = outer;
  }
}
