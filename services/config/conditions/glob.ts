/**
 * Glob patterns of the `*=` operator (docs/conditions.md "Globs"), matched against the whole
 * value with `/` as the segment separator:
 *
 * | pattern | matches |
 * | --- | --- |
 * | `**` (whole segment) | any number of segments, including zero |
 * | `*` (whole segment) | exactly one segment |
 * | `*` (part of a segment) | any characters except `/`, including none |
 * | `?` | one character except `/` |
 * | `[seq]`, `[!seq]` | one character in / not in seq (ranges allowed) |
 * | `{a,b}` | either alternative (nestable; alternatives are globs too) |
 */
import { ValueError } from "./value-error.js";

const SPECIAL = /[.*+?^${}()|[\]\\]/g;

function escapeLiteral(text: string): string {
  return text.replace(SPECIAL, "\\$&");
}

class GlobCompiler {
  private i = 0;
  constructor(private readonly pattern: string) {}

  private fail(reason: string): never {
    throw new ValueError(`invalid glob "${this.pattern}": ${reason}`);
  }

  /** Compiles until the end, or until `,`/`}` when inside braces. */
  compile(inBraces: boolean): string {
    let out = "";
    const p = this.pattern;
    while (this.i < p.length) {
      const c = p[this.i];
      const atSegmentStart = this.i === 0 || p[this.i - 1] === "/" || p[this.i - 1] === "{" || p[this.i - 1] === ",";
      if (inBraces && (c === "," || c === "}")) return out;
      if (c === "*") {
        const double = p[this.i + 1] === "*";
        const end = this.i + (double ? 2 : 1);
        const atSegmentEnd = end === p.length || p[end] === "/" || (inBraces && (p[end] === "," || p[end] === "}"));
        if (double && atSegmentStart && atSegmentEnd) {
          if (p[end] === "/") {
            out += "(?:[^/]+/)*";
            this.i = end + 1;
          } else {
            out = out.endsWith("/") ? `${out.slice(0, -1)}(?:/.*)?` : `${out}.*`;
            this.i = end;
          }
        } else if (!double && atSegmentStart && atSegmentEnd) {
          out += "[^/]+";
          this.i = end;
        } else {
          out += "[^/]*";
          this.i = end;
        }
      } else if (c === "?") {
        out += "[^/]";
        this.i++;
      } else if (c === "[") {
        out += this.charClass();
      } else if (c === "{") {
        this.i++;
        const alternatives: string[] = [];
        for (;;) {
          alternatives.push(this.compile(true));
          if (this.i >= p.length) this.fail("unbalanced {");
          if (p[this.i] === "}") break;
          this.i++; // ","
        }
        this.i++; // "}"
        out += `(?:${alternatives.join("|")})`;
      } else if (c === "}" && !inBraces) {
        this.fail("unbalanced }");
      } else {
        out += escapeLiteral(c);
        this.i++;
      }
    }
    return out;
  }

  private charClass(): string {
    const p = this.pattern;
    const close = p.indexOf("]", this.i + 2);
    if (close < 0) this.fail("unbalanced [");
    let body = p.slice(this.i + 1, close);
    this.i = close + 1;
    let negate = false;
    if (body.startsWith("!")) {
      negate = true;
      body = body.slice(1);
    }
    if (body === "") this.fail("empty character set");
    const escaped = body.replace(/[\\\]^[]/g, "\\$&");
    return negate ? `[^/${escaped}]` : `[${escaped}]`;
  }
}

/** Compiles a glob into an anchored RegExp source. @throws ValueError when unbalanced. */
export function compileGlob(pattern: string): string {
  if (pattern === "") throw new ValueError('invalid glob "": a glob cannot be empty');
  return `^(?:${new GlobCompiler(pattern).compile(false)})$`;
}

/** True when `value` matches the whole glob. */
export function globMatches(pattern: string, value: string): boolean {
  return new RegExp(compileGlob(pattern)).test(value);
}
