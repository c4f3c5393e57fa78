/**
 * Template filters that real configuration files use and Nunjucks lacks: Jinja2's `map`, `unique`
 * and `tojson`, and the compatible format's `get_section`
 * (https://docs.mergify.com/configuration/data-types/#template). Nunjucks passes keyword arguments
 * (`map(attribute="login")`) as a last object argument.
 */

type Kwargs = { __keywords?: boolean } & Record<string, unknown>;

function isKwargs(v: unknown): v is Kwargs {
  return typeof v === "object" && v !== null && (v as Kwargs).__keywords === true;
}

/** `items | map(attribute="x")` or `items | map("upper")`-style filter names are not supported: attribute only. */
function map(items: unknown, ...args: unknown[]): unknown[] {
  const list = Array.isArray(items) ? items : [];
  const kw = args.find(isKwargs);
  const attribute = (kw?.attribute as string | undefined) ?? (typeof args[0] === "string" ? args[0] : undefined);
  if (attribute === undefined) return list;
  return list.map((item) =>
    attribute
      .split(".")
      .reduce<unknown>(
        (v, k) => (v !== null && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined),
        item,
      ),
  );
}

function unique(items: unknown): unknown[] {
  return Array.isArray(items) ? [...new Set(items)] : [];
}

function tojson(value: unknown): string {
  return JSON.stringify(value ?? null);
}

/**
 * The Markdown section of `body` under the heading `section` (e.g. "### Changelog"), without the
 * heading, up to the next heading of the same or a higher level; `fallback` when absent.
 */
function getSection(body: unknown, section: unknown, fallback: unknown = ""): string {
  const text = typeof body === "string" ? body : "";
  const heading = typeof section === "string" ? section.trim() : "";
  const level = /^#+/.exec(heading)?.[0].length ?? 0;
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => l.trim() === heading);
  if (start < 0 || level === 0) return typeof fallback === "string" ? fallback : "";
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const m = /^(#+)\s/.exec(line);
    if (m && m[1].length <= level) break;
    out.push(line);
  }
  return out.join("\n").trim();
}

/** Filter name -> function, added to the template environment. */
export const TEMPLATE_FILTERS: Readonly<Record<string, (...args: never[]) => unknown>> = {
  map,
  unique,
  tojson,
  get_section: getSection,
};
