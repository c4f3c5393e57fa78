/**
 * Parser of google.api.http path templates (proto/google/api/http.proto, "Path template syntax"):
 *
 *     Template = "/" Segments [ Verb ] ;
 *     Segments = Segment { "/" Segment } ;
 *     Segment  = "*" | "**" | LITERAL | Variable ;
 *     Variable = "{" FieldPath [ "=" Segments ] "}" ;
 *     FieldPath = IDENT { "." IDENT } ;
 *     Verb     = ":" LITERAL ;
 *
 * A variable without "=" matches one segment (`{name}` = `{name=*}`). `**` may only be the last
 * segment. Errors name the template and the 1-based column, as vanguard-go's parser does.
 */

/** One segment of a template: a literal, `*` (one segment) or `**` (the rest of the path). */
export type Segment = { kind: "literal"; value: string } | { kind: "single" } | { kind: "rest" };

/** A variable: a field path bound to segments [start, end) of the template; end -1 = to the end. */
export interface Variable {
  fieldPath: string[];
  start: number;
  end: number;
}

/**
 * A parsed google.api.http path template: the `source` text, its segments and the variables bound
 * to ranges of them.
 */
export interface PathTemplate {
  source: string;
  segments: Segment[];
  variables: Variable[];
  /** The custom verb after ":" in the last segment, or "" when none. */
  verb: string;
}

/** A template that does not follow the grammar. */
export class PathTemplateError extends Error {
  override readonly name = "PathTemplateError";
  constructor(
    readonly template: string,
    readonly column: number,
    reason: string,
  ) {
    super(`invalid path template "${template}" at column ${column}: ${reason}`);
  }
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*/;
// RFC 3986 pchar minus the characters that have a meaning in the grammar ("/", "{", "}", "*", ":", "=").
const LITERAL = /^(?:[A-Za-z0-9\-._~!$&'()+,;@]|%[0-9A-Fa-f]{2})+/;

/**
 * Parses a template.
 * @throws PathTemplateError naming the column of the first problem.
 */
export function parsePathTemplate(source: string): PathTemplate {
  let pos = 0;
  const fail = (reason: string): never => {
    throw new PathTemplateError(source, pos + 1, reason);
  };
  const segments: Segment[] = [];
  const variables: Variable[] = [];
  let verb = "";
  let inVariable = false;

  function parseSegments(): void {
    for (;;) {
      parseSegment();
      if (source[pos] !== "/") return;
      pos++;
    }
  }

  function parseSegment(): void {
    const rest = source.slice(pos);
    if (rest.startsWith("**")) {
      segments.push({ kind: "rest" });
      pos += 2;
      return;
    }
    if (rest.startsWith("*")) {
      segments.push({ kind: "single" });
      pos += 1;
      return;
    }
    if (rest.startsWith("{")) {
      if (inVariable) fail("variables cannot be nested");
      pos++;
      const fieldPath: string[] = [];
      for (;;) {
        const m = IDENT.exec(source.slice(pos));
        if (!m) fail("expected a field name");
        fieldPath.push(m![0]);
        pos += m![0].length;
        if (source[pos] !== ".") break;
        pos++;
      }
      const start = segments.length;
      if (source[pos] === "=") {
        pos++;
        inVariable = true;
        parseSegments();
        inVariable = false;
      } else {
        segments.push({ kind: "single" });
      }
      if (source[pos] !== "}") fail('expected "}"');
      pos++;
      const end = segments.at(-1)!.kind === "rest" ? -1 : segments.length;
      variables.push({ fieldPath, start, end });
      return;
    }
    const m = LITERAL.exec(rest);
    if (!m) fail("expected a literal, *, ** or {variable}");
    segments.push({ kind: "literal", value: decodeURIComponent(m![0]) });
    pos += m![0].length;
  }

  if (source[0] !== "/") fail('a template starts with "/"');
  pos = 1;
  parseSegments();
  if (source[pos] === ":") {
    pos++;
    const m = LITERAL.exec(source.slice(pos));
    if (!m) fail('expected a verb after ":"');
    verb = m![0];
    pos += m![0].length;
  }
  if (pos !== source.length) fail(`unexpected "${source[pos]}"`);
  segments.forEach((s, i) => {
    if (s.kind === "rest" && i !== segments.length - 1) {
      pos = source.indexOf("**");
      fail('"**" must be the last segment');
    }
  });
  const names = new Set<string>();
  for (const v of variables) {
    const name = v.fieldPath.join(".");
    if (names.has(name)) {
      pos = source.lastIndexOf(`{${name}`);
      fail(`variable "${name}" appears twice`);
    }
    names.add(name);
  }
  return { source, segments, variables, verb };
}
