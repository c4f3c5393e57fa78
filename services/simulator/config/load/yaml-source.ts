/**
 * The configuration text as YAML (the `yaml` library, YAML 1.2 with the `<<` merge key of YAML
 * 1.1 that real files use): its value, its syntax errors with line and column, and where any path
 * of the value sits in the text, following anchors and merge keys, so that every configuration
 * error can name a line and column (docs/configuration.md "Errors").
 */
import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, Scalar, visit, type Document, type Node, type YAMLMap } from "yaml";
import type { ConfigError } from "../model.js";

/** A parsed configuration text. */
export interface YamlSource {
  /** The plain value (null for an empty file). */
  value: unknown;
  /** Syntax errors; when non-empty, `value` must not be used. */
  errors: ConfigError[];
  /**
   * 1-based line and column of the node at `path` (or of the deepest existing ancestor).
   * With `key`, the position of the last path element's key rather than of its value. A node
   * reached through an alias (`*name`) or a merge key (`<<: *name`) is located where its anchor
   * (`&name`) wrote it, not at the alias: that is where the value can be fixed.
   */
  locate(path: readonly (string | number)[], key?: boolean): { line: number; column: number } | null;
}

/** Most alias expansions allowed (guards against "billion laughs" documents). */
const MAX_ALIAS_COUNT = 10_000;

const CONFLICT_MARKER = /^(<{7}|={7}|>{7})(\s|$)/m;

/** The library's messages that speak to its caller, not to the file's author, said for the author. */
function ownWords(code: string, message: string): string | undefined {
  if (code === "MULTIPLE_DOCS") return "the file holds more than one YAML document (a --- line starts another); a configuration is one document";
  if (/Maximum call stack size exceeded/.test(message)) return "the file nests too deeply to be read (thousands of levels of brackets or indentation)";
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

/**
 * A merge key `<<` (unquoted; a quoted "<<" is an ordinary key). The library resolves it to the
 * symbol `Symbol(<<)`, the plain text "<<" as it was before 2.x; the same test as its own.
 */
function isMergeKey(key: unknown): boolean {
  if (!isScalar(key)) return false;
  const v = key.value;
  if (typeof v === "symbol") return v.description === "<<";
  return v === "<<" && (key.type === undefined || key.type === Scalar.PLAIN);
}

function findInMap(doc: Document, map: YAMLMap, segment: string | number, seen = new Set<unknown>()): { pair: unknown; value: unknown } | null {
  if (seen.has(map)) return null;
  seen.add(map);
  for (const pair of map.items) {
    if (isPair(pair) && isScalar(pair.key) && String(pair.key.value) === String(segment)) return { pair, value: pair.value };
  }
  for (const pair of map.items) {
    if (!isPair(pair) || !isMergeKey(pair.key)) continue;
    const sources = isSeq(pair.value) ? pair.value.items : [pair.value];
    for (let source of sources) {
      if (isAlias(source)) source = source.resolve(doc);
      if (isMap(source)) {
        const found = findInMap(doc, source, segment, seen);
        if (found !== null) return found;
      }
    }
  }
  return null;
}

function position(counter: LineCounter, node: unknown): { line: number; column: number } | null {
  const range = (node as Node | undefined)?.range;
  if (!range) return null;
  const p = counter.linePos(range[0]);
  return { line: p.line, column: p.col };
}

/** Parses a configuration text. Never throws. */
export function readYaml(text: string): YamlSource {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, merge: true, uniqueKeys: true, prettyErrors: false });
  const errors: ConfigError[] = doc.errors.map((e) => {
    const p = counter.linePos(e.pos[0]);
    return { path: [], line: p.line, column: p.col, message: `YAML syntax error: ${ownWords(e.code, e.message) ?? e.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "")}${hint(e.code, e.message)}` };
  });
  const conflict = CONFLICT_MARKER.exec(text);
  if (errors.length > 0 && conflict !== null) {
    const p = counter.linePos(conflict.index);
    errors.unshift({ path: [], line: p.line, column: p.col, message: "the file contains unresolved git merge conflict markers (<<<<<<<, =======, >>>>>>>)" });
  }
  if (errors.length === 0) {
    visit(doc, {
      Alias(_, node, ancestors) {
        const target = node.resolve(doc);
        if (target !== undefined && !ancestors.includes(target as never)) return;
        const p = node.range ? counter.linePos(node.range[0]) : null;
        const message = target === undefined
          ? `unknown anchor *${node.source}: an alias must refer to an anchor (&${node.source}) set earlier in the same file`
          : `recursive alias *${node.source}: it is inside the node its anchor names`;
        errors.push({ path: [], line: p?.line ?? null, column: p?.col ?? null, message });
      },
    });
  }
  let value: unknown = null;
  if (errors.length === 0) {
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? null;
    } catch (e) {
      const message = /alias count/i.test((e as Error).message)
        ? `the aliases expand to more than ${MAX_ALIAS_COUNT} nodes (aliases of aliases multiply): write the values out, or use fewer aliases`
        : (e as Error).message;
      errors.push({ path: [], line: null, column: null, message: `YAML error: ${message}` });
    }
  }
  const locate = (path: readonly (string | number)[], key = false): { line: number; column: number } | null => {
    let node: unknown = doc.contents;
    let best = position(counter, node);
    for (let i = 0; i < path.length; i++) {
      if (isAlias(node)) node = node.resolve(doc);
      const segment = path[i];
      let next: unknown = undefined;
      let pairKey: unknown = undefined;
      if (isMap(node)) {
        const found = findInMap(doc, node, segment);
        if (found !== null) {
          next = found.value;
          pairKey = (found.pair as { key: unknown }).key;
        }
      } else if (isSeq(node) && typeof segment === "number") {
        next = node.items[segment];
      }
      if (next === undefined && pairKey === undefined) break;
      const last = i === path.length - 1;
      // A value written as an alias (`*name`) is the anchored node: point where it is written.
      const written = isAlias(next) ? next.resolve(doc) : next;
      // An empty value (`queue:` with nothing after) has no text of its own: point at its key
      // (an anchored empty value, `name: &a`, is pointed at after its anchor).
      const empty = !isAlias(next) && isScalar(written) && written.value === null && written.range !== undefined && written.range !== null && written.range[0] === written.range[1];
      best = ((last && key) || empty ? position(counter, pairKey) : null) ?? position(counter, written) ?? position(counter, pairKey) ?? best;
      node = next;
    }
    return best;
  };
  return { value, errors, locate };
}
