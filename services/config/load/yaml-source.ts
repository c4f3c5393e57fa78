/**
 * The configuration text as YAML (the `yaml` library, YAML 1.2 with the `<<` merge key of YAML
 * 1.1 that real files use): its value, its syntax errors with line and column, and where any path
 * of the value sits in the text, following anchors and merge keys, so that every configuration
 * error can name a line and column (docs/configuration.md "Errors").
 *
 * Work is bounded (docs/configuration.md "Limits"): the parser's tokens are checked against the
 * limits on nodes, nesting and aliases (yaml-scan.ts) before the document is composed; keys are
 * checked for duplicates with one set per mapping instead of the library's pairwise comparison;
 * aliases expand to at most {@link MAX_ALIAS_EXPANSION} nodes.
 */
import {
  Composer,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  Parser,
  YAMLParseError,
  type CST,
  type Document,
  type Node,
} from "yaml";
import type { ConfigError } from "../model.js";
import { MAX_ALIAS_EXPANSION } from "./limits.js";
import { indexDocument, type YamlIndex } from "./yaml-index.js";
import { firstLimitViolation } from "./yaml-scan.js";

/** A parsed configuration text. */
export interface YamlSource {
  /** The plain value (null for an empty file). */
  value: unknown;
  /** Syntax errors, every one found (the caller caps the list); when non-empty, `value` must not be used. */
  errors: ConfigError[];
  /**
   * 1-based line and column of the node at `path` (or of the deepest existing ancestor).
   * With `key`, the position of the last path element's key rather than of its value. A node
   * reached through an alias (`*name`) or a merge key (`<<: *name`) is located where its anchor
   * (`&name`) wrote it, not at the alias: that is where the value can be fixed.
   */
  locate(path: readonly (string | number)[], key?: boolean): { line: number; column: number } | null;
}

const CONFLICT_MARKER = /^(<{7}|={7}|>{7})(\s|$)/m;

/** The library's messages that speak to its caller, not to the file's author, said for the author. */
function ownWords(code: string): string | undefined {
  if (code === "MULTIPLE_DOCS")
    return "the file holds more than one YAML document (a --- line starts another); a configuration is one document";
  return undefined;
}

function hint(code: string, message: string): string {
  if (code === "MISSING_CHAR" && message.includes("quote")) {
    return " (a quoted value continued on the next lines must indent those lines more than its key, or close the quote on the same line)";
  }
  if (code === "DUPLICATE_KEY") return " (the same key appears twice in one mapping)";
  if (code === "TAB_AS_INDENT") return " (indent with spaces, not tabs)";
  return "";
}

function position(counter: LineCounter, node: unknown): { line: number; column: number } | null {
  const range = (node as Node | undefined)?.range;
  if (!range) return null;
  const p = counter.linePos(range[0]);
  return { line: p.line, column: p.col };
}

/** The first document of the tokens, with an error for each further one (as `parseDocument` does). */
function compose(tokens: CST.Token[], length: number): Document.Parsed {
  const composer = new Composer({ merge: true, uniqueKeys: false });
  let doc: Document.Parsed | null = null;
  for (const next of composer.compose(tokens, true, length)) {
    if (doc === null) doc = next;
    else {
      doc.errors.push(
        new YAMLParseError([next.range[0], next.range[1]], "MULTIPLE_DOCS", "Source contains multiple documents"),
      );
      break;
    }
  }
  return doc!;
}

/** Parses a configuration text. Never throws. */
export function readYaml(text: string): YamlSource {
  const counter = new LineCounter();
  const at = (offset: number) => counter.linePos(offset);
  const tokens = [...new Parser(counter.addNewLine).parse(text)];
  const over = firstLimitViolation(tokens);
  if (over !== null) {
    const p = at(over.offset);
    return {
      value: null,
      errors: [{ path: [], line: p.line, column: p.col, message: `YAML error: ${over.message}` }],
      locate: () => null,
    };
  }
  const doc = compose(tokens, text.length);
  const errors: ConfigError[] = doc.errors.map((e) => {
    const p = at(e.pos[0]);
    return {
      path: [],
      line: p.line,
      column: p.col,
      message: `YAML syntax error: ${ownWords(e.code) ?? e.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "")}${hint(e.code, e.message)}`,
    };
  });
  const conflict = CONFLICT_MARKER.exec(text);
  if (errors.length > 0 && conflict !== null) {
    const p = at(conflict.index);
    errors.unshift({
      path: [],
      line: p.line,
      column: p.col,
      message: "the file contains unresolved git merge conflict markers (<<<<<<<, =======, >>>>>>>)",
    });
  }
  const { index, problems } = indexDocument(doc);
  // Aliases are checked in a text without syntax errors; duplicate keys are syntax errors.
  const syntaxOnly = errors.length > 0 || problems.some((p) => p.kind === "duplicate-key");
  for (const problem of problems) {
    if (syntaxOnly && problem.kind === "alias") continue;
    const p = position(counter, problem.node);
    const message =
      problem.kind === "duplicate-key"
        ? `YAML syntax error: ${problem.message}${hint("DUPLICATE_KEY", "")}`
        : problem.message;
    errors.push({ path: [], line: p?.line ?? null, column: p?.column ?? null, message });
  }
  let value: unknown = null;
  if (errors.length === 0) {
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIAS_EXPANSION }) ?? null;
    } catch (e) {
      const message = /alias count/i.test((e as Error).message)
        ? `the aliases expand to more than ${MAX_ALIAS_EXPANSION} nodes (aliases of aliases multiply): write the values out, or use fewer aliases`
        : (e as Error).message;
      errors.push({ path: [], line: null, column: null, message: `YAML error: ${message}` });
    }
  }
  return { value, errors, locate: (path, key = false) => locate(doc, index, counter, path, key) };
}

function locate(
  doc: Document,
  index: YamlIndex,
  counter: LineCounter,
  path: readonly (string | number)[],
  key: boolean,
): { line: number; column: number } | null {
  const resolve = (node: unknown) => (isAlias(node) ? index.target(node) : node);
  let node: unknown = doc.contents;
  let best = position(counter, node);
  for (let i = 0; i < path.length; i++) {
    node = resolve(node);
    const segment = path[i];
    let next: unknown;
    let pairKey: unknown;
    if (isMap(node)) {
      const found = index.findInMap(node, segment);
      if (found !== null) {
        next = found.value;
        pairKey = found.pair.key;
      }
    } else if (isSeq(node) && typeof segment === "number") {
      next = node.items[segment];
    }
    if (next === undefined && pairKey === undefined) break;
    const last = i === path.length - 1;
    // A value written as an alias (`*name`) is the anchored node: point where it is written.
    const written = resolve(next);
    // An empty value (`queue:` with nothing after) has no text of its own: point at its key
    // (an anchored empty value, `name: &a`, is pointed at after its anchor).
    const empty =
      !isAlias(next) &&
      isScalar(written) &&
      written.value === null &&
      written.range !== undefined &&
      written.range !== null &&
      written.range[0] === written.range[1];
    best =
      ((last && key) || empty ? position(counter, pairKey) : null) ??
      position(counter, written) ??
      position(counter, pairKey) ??
      best;
    node = next;
  }
  return best;
}
