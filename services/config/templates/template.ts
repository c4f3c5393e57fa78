/**
 * The one template engine of action options (title, body, message, summary, commit message):
 * Jinja2 syntax as the compatible format documents it
 * (https://docs.mergify.com/configuration/data-types/#template), rendered by Nunjucks (a Jinja2
 * port) with autoescape off. Variables are the pull request's attributes with `-` written `_`
 * (`{{ author }}`, `{{ number }}`, `{{ title }}`, `{{ body }}`, `{{ labels }}`,
 * `{{ approved_reviews_by }}`...) plus the action's own (`{{ check_rule_name }}`...). Rules:
 * docs/workflow-automation.md "Templates". Every render is bounded in steps, characters written
 * and the size of its result (template-limits.ts, bounded-runtime.ts). Pure: no loader, no file system.
 */
import nunjucks from "nunjucks";
import { boundEnvironment, withBudget } from "./bounded-runtime.js";
import { TEMPLATE_FILTERS } from "./filters.js";
import { templateCostProblem } from "./template-cost.js";
import type { OutputLimit } from "./template-limits.js";
import { templateNames } from "./template-names.js";

/** A template that does not parse or names an unknown filter or variable. */
export class TemplateError extends Error {
  override readonly name = "TemplateError";
}

const environment = new nunjucks.Environment(null, { autoescape: false, throwOnUndefined: false });
for (const [name, fn] of Object.entries(TEMPLATE_FILTERS)) environment.addFilter(name, fn);
boundEnvironment(environment);

/** Values a template reads, by variable name. */
export type TemplateVariables = Readonly<Record<string, unknown>>;

const cache = new Map<string, nunjucks.Template>();
const CACHE_LIMIT = 500;

function compile(source: string): nunjucks.Template {
  const hit = cache.get(source);
  if (hit) return hit;
  let template: nunjucks.Template;
  try {
    template = new nunjucks.Template(source, environment, undefined, true);
  } catch (e) {
    throw new TemplateError(cleanMessage(e));
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(source, template);
  return template;
}

/** Nunjucks prefixes "(unknown path) [Line 1, Column 7]" and a newline; keep the position and the reason. */
function cleanMessage(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text
    .replace(/^\(unknown path\)\s*/, "")
    .replace(/\s*\n\s*/g, ": ")
    .replace(/^Error: /, "")
    .replace(/(^|: )(Template\w*Error|RangeError): /, "$1")
    .trim();
}

/**
 * Renders `source` with `variables`; an undefined variable renders as an empty text (Jinja2's
 * default). The render takes at most TEMPLATE_STEP_LIMIT steps and writes at most
 * TEMPLATE_WRITE_LIMIT characters (template-limits.ts); its result holds at most `limit`'s characters.
 * @throws TemplateError when the template does not parse, a filter fails, or a limit is passed
 *   (its message names the limit; nothing of the output is kept)
 */
export function renderTemplate(source: string, variables: TemplateVariables, limit?: OutputLimit): string {
  const template = compile(source);
  let out: string;
  try {
    out = withBudget(() => template.render({ ...variables }));
  } catch (e) {
    throw new TemplateError(cleanMessage(e));
  }
  if (limit !== undefined && out.length > limit.characters)
    throw new TemplateError(`the text is ${out.length} characters long, over ${limit.characters} (${limit.source})`);
  return out;
}

/**
 * Checks a template against the variables it may read: it must parse, its constant loops must fit
 * the steps of a render (template-cost.ts), its filters must exist, and the free variables it
 * reads must be in `known`.
 * @returns the problem, or null when the template is valid
 */
export function templateProblem(source: string, known: readonly string[]): string | null {
  try {
    compile(source);
  } catch (e) {
    return (e as Error).message;
  }
  const costly = templateCostProblem(source);
  if (costly !== null) return costly;
  const { variables, filters } = templateNames(source);
  const registered = (environment as unknown as { filters: Record<string, unknown> }).filters;
  const badFilters = [...filters].filter((f) => registered[f] === undefined);
  if (badFilters.length > 0) return `unknown filter ${badFilters.map((n) => `"${n}"`).join(", ")}`;
  const names = new Set([...known, ...BUILTINS]);
  const unknown = [...variables].filter((v) => !names.has(v));
  if (unknown.length > 0) return `unknown template variable ${unknown.map((n) => `"${n}"`).join(", ")}`;
  return null;
}

/** Names Nunjucks itself defines in every template (globals, loop helpers, literals). */
const BUILTINS = [
  "range",
  "cycler",
  "joiner",
  "loop",
  "caller",
  "super",
  "true",
  "false",
  "none",
  "True",
  "False",
  "None",
];
