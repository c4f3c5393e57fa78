/**
 * Regular expressions of `~=` conditions are written for Python's `re` module (the format our
 * users migrate from, docs/domain.md §2.1 step 5). This module translates a Python pattern to
 * an equivalent JavaScript `RegExp` (no `u` flag, so identity escapes such as `\#` keep working),
 * refusing what Python refuses and what JavaScript cannot express:
 *
 * - global inline flags `(?i)`, `(?m)`, `(?s)`, `(?x)`, `(?a)`, `(?u)` at the start only;
 * - `(?P<name>...)`, `(?P=name)`, `(?#comment)`, `\A`, `\Z`, `\a`, `\UXXXXXXXX`, `{,n}`;
 * - `$` without MULTILINE also matches before a final newline, as in Python;
 * - `[]...]` keeps its leading `]` literal;
 * - unknown letter escapes (`\q`), scoped flags `(?i:...)`, atomic groups, possessive quantifiers
 *   and conditional groups are errors.
 *
 * Matching uses search semantics: the pattern may match anywhere (RegExp.prototype.test).
 */
import { ValueError } from "./value-error.js";

/** A translated pattern, ready for `new RegExp(source, flags)`. */
export interface TranslatedRegex {
  source: string;
  flags: string;
}

const KNOWN_ESCAPES = new Set(["b", "B", "d", "D", "s", "S", "w", "W", "n", "t", "r", "f", "v"]);

class Translator {
  private i = 0;
  private out = "";
  private groups = 0;
  private readonly open: number[] = [];
  private readonly names: string[] = [];
  private flags = new Set<string>();
  private verbose = false;

  constructor(private readonly src: string) {}

  private fail(reason: string, at = this.i): never {
    throw new ValueError(`invalid regular expression "${this.src}": ${reason} at position ${at}`);
  }

  run(): TranslatedRegex {
    this.leadingFlags();
    while (this.i < this.src.length) this.atom();
    if (this.open.length > 0) this.fail("missing ), unterminated subpattern", this.open[this.open.length - 1]);
    const flags = [...this.flags]
      .filter((f) => "ims".includes(f))
      .sort()
      .join("");
    return { source: this.out, flags };
  }

  private leadingFlags(): void {
    for (;;) {
      const m = /^\(\?([aiLmsux]+)\)/.exec(this.src.slice(this.i));
      if (m === null) return;
      if (m[1].includes("L")) this.fail("the L flag is only allowed with bytes patterns");
      for (const f of m[1]) this.flags.add(f);
      if (m[1].includes("x")) this.verbose = true;
      this.i += m[0].length;
    }
  }

  private atom(): void {
    const c = this.src[this.i];
    if (this.verbose && /\s/.test(c)) {
      this.i++;
      return;
    }
    if (this.verbose && c === "#") {
      while (this.i < this.src.length && this.src[this.i] !== "\n") this.i++;
      return;
    }
    switch (c) {
      case "\\":
        this.out += this.escape(false);
        return;
      case "[":
        this.charClass();
        return;
      case "(":
        this.open.push(this.i);
        this.group();
        return;
      case ")":
        if (this.open.pop() === undefined) this.fail("unbalanced parenthesis");
        this.out += ")";
        this.i++;
        return;
      case "$":
        this.i++;
        this.out += this.flags.has("m") ? "$" : "(?=\\n?(?![\\s\\S]))";
        return;
      case "{": {
        const m = /^\{,(\d+)\}/.exec(this.src.slice(this.i));
        if (m !== null) {
          this.out += `{0,${m[1]}}`;
          this.i += m[0].length;
          this.possessive();
          return;
        }
        const q = /^\{\d+(,\d*)?\}/.exec(this.src.slice(this.i));
        if (q !== null) {
          this.out += q[0];
          this.i += q[0].length;
          this.possessive();
          return;
        }
        this.out += "\\{";
        this.i++;
        return;
      }
      case "*":
      case "+":
      case "?":
        this.out += c;
        this.i++;
        if (this.src[this.i] === "?") {
          this.out += "?";
          this.i++;
        } else this.possessive();
        return;
      default:
        this.out += c;
        this.i++;
    }
  }

  private possessive(): void {
    if (this.src[this.i] === "+") this.fail("possessive quantifiers are not supported");
  }

  private group(): void {
    const rest = this.src.slice(this.i);
    if (!rest.startsWith("(?")) {
      this.groups++;
      this.out += "(";
      this.i++;
      return;
    }
    let m: RegExpExecArray | null;
    if ((m = /^\(\?P<([A-Za-z_]\w*)>/.exec(rest)) !== null) {
      this.groups++;
      this.names.push(m[1]);
      this.out += `(?<${m[1]}>`;
      this.i += m[0].length;
    } else if ((m = /^\(\?P=([A-Za-z_]\w*)\)/.exec(rest)) !== null) {
      if (!this.names.includes(m[1])) this.fail(`unknown group name "${m[1]}"`);
      this.open.pop();
      this.out += `\\k<${m[1]}>`;
      this.i += m[0].length;
    } else if (rest.startsWith("(?#")) {
      const end = this.src.indexOf(")", this.i);
      if (end < 0) this.fail("missing ), unterminated comment");
      this.open.pop();
      this.i = end + 1;
    } else if (/^\(\?(:|=|!|<=|<!)/.test(rest)) {
      const len = rest.startsWith("(?<") ? 4 : 3;
      this.out += rest.slice(0, len);
      this.i += len;
    } else if (/^\(\?[aiLmsux]+\)/.test(rest)) {
      this.fail("global flags not at the start of the expression");
    } else if (/^\(\?[aiLmsux-]+:/.test(rest)) {
      this.fail("scoped inline flags such as (?i:...) are not supported; put (?i) at the start");
    } else if (rest.startsWith("(?>")) {
      this.fail("atomic groups are not supported");
    } else if (rest.startsWith("(?(")) {
      this.fail("conditional groups are not supported");
    } else {
      this.fail(`unknown extension ${rest.slice(0, 3)}`);
    }
  }

  private charClass(): void {
    const start = this.i;
    this.out += "[";
    this.i++;
    if (this.src[this.i] === "^") {
      this.out += "^";
      this.i++;
    }
    if (this.src[this.i] === "]") {
      this.out += "\\]";
      this.i++;
    }
    while (this.i < this.src.length && this.src[this.i] !== "]") {
      if (this.src[this.i] === "\\") this.out += this.escape(true);
      else if (this.src[this.i] === "[") {
        this.out += "\\[";
        this.i++;
      } else {
        this.out += this.src[this.i];
        this.i++;
      }
    }
    if (this.i >= this.src.length) this.fail("unterminated character set", start);
    this.out += "]";
    this.i++;
  }

  private hex(count: number, at: number): string {
    const digits = this.src.slice(this.i, this.i + count);
    if (digits.length < count || !/^[0-9a-fA-F]+$/.test(digits))
      this.fail(`incomplete escape \\${this.src[at + 1]}${digits}`, at);
    this.i += count;
    return digits;
  }

  private escape(inClass: boolean): string {
    const at = this.i;
    this.i++;
    if (this.i >= this.src.length) this.fail("bad escape (end of pattern)", at);
    const c = this.src[this.i];
    this.i++;
    if (/[0-9]/.test(c)) {
      if (c === "0" || inClass) {
        let digits = c;
        while (digits.length < 3 && /[0-7]/.test(this.src[this.i] ?? "")) digits += this.src[this.i++];
        return `\\x${Number.parseInt(digits, 8).toString(16).padStart(2, "0")}`;
      }
      let digits = c;
      if (/[0-9]/.test(this.src[this.i] ?? "")) digits += this.src[this.i++];
      if (Number(digits) > this.groups) this.fail(`invalid group reference ${digits}`, at);
      return `(?:\\${digits})`;
    }
    if (c === "A" || c === "Z") {
      if (inClass) this.fail(`bad escape \\${c}`, at);
      return c === "A" ? "(?<![\\s\\S])" : "(?![\\s\\S])";
    }
    if (c === "b" && inClass) return "\\x08";
    if (c === "B" && inClass) this.fail("bad escape \\B", at);
    if (c === "a") return "\\x07";
    if (c === "x") return `\\x${this.hex(2, at)}`;
    if (c === "u") return `\\u${this.hex(4, at)}`;
    if (c === "U") {
      const code = Number.parseInt(this.hex(8, at), 16);
      if (code > 0x10ffff) this.fail("bad escape \\U (code point out of range)", at);
      const ch = String.fromCodePoint(code);
      return [...ch].length === 1 && ch.length === 2
        ? `(?:\\u${ch.charCodeAt(0).toString(16)}\\u${ch.charCodeAt(1).toString(16)})`
        : `\\u${code.toString(16).padStart(4, "0")}`;
    }
    if (c === "N") this.fail("named Unicode escapes \\N{...} are not supported", at);
    if (KNOWN_ESCAPES.has(c)) return `\\${c}`;
    if (/[A-Za-z]/.test(c)) this.fail(`bad escape \\${c}`, at);
    return `\\${c}`;
  }
}

/**
 * Translates a Python regular expression and checks it compiles.
 * @throws ValueError naming the pattern, the problem and its position.
 */
export function translatePythonRegex(pattern: string): TranslatedRegex {
  const translated = new Translator(pattern).run();
  try {
    new RegExp(translated.source, translated.flags);
  } catch (e) {
    const reason = (e as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, "");
    throw new ValueError(`invalid regular expression "${pattern}": ${reason}`);
  }
  return translated;
}
