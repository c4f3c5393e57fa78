/**
 * REST request bodies parsed losslessly (docs/rest-json.md): integers beyond 2^53 arrive as exact
 * decimal strings, every other number as a number; `lossless-json`'s rules and messages (a
 * duplicate key with another value is refused). That library reads strings one character at a
 * time in JavaScript: a body holding a configuration text of 1 MiB took 70-130 ms of the event
 * loop. Long string literals (over 256 characters) are therefore decoded by the engine's
 * `JSON.parse`, and the library parses the body with a short placeholder in their place; an error
 * message's position is the one in the body as sent.
 */
import { randomBytes } from "node:crypto";
import { isSafeNumber, parse as parseLossless } from "lossless-json";

/** String literals longer than this (quotes included) are decoded natively. */
const LONG_LITERAL = 256;

type Cut = { at: number; original: number; placeholder: number };

/** The end (index of the closing quote) of the string literal opening at `start`, or -1. */
function literalEnd(text: string, start: number): number {
  let i = start;
  for (;;) {
    i = text.indexOf('"', i + 1);
    if (i < 0) return -1;
    let slashes = 0;
    while (text.charCodeAt(i - 1 - slashes) === 92) slashes++;
    if (slashes % 2 === 0) return i;
  }
}

/** Replaces placeholders (keys and values) by the strings they stand for, in place. */
function restore(value: unknown, strings: Map<string, string>): unknown {
  if (typeof value === "string") return strings.get(value) ?? value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = restore(value[i], strings);
    return value;
  }
  if (value === null || typeof value !== "object") return value;
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    const v = restore(object[key], strings);
    const real = strings.get(key);
    if (real === undefined) object[key] = v;
    else {
      delete object[key];
      object[real] = v;
    }
  }
  return object;
}

/**
 * Parses a JSON text (see the module comment).
 * @throws SyntaxError with lossless-json's message, its position counted in `text`
 */
export function parseJsonBody(text: string): unknown {
  const reviveNumber = (s: string) => (isSafeNumber(s) ? Number(s) : s);
  const nonce = randomBytes(9).toString("hex");
  const strings = new Map<string, string>();
  const byLiteral = new Map<string, string>();
  const cuts: Cut[] = [];
  let short = "";
  let from = 0;
  for (let start = text.indexOf('"'); start >= 0; start = text.indexOf('"', start)) {
    const end = literalEnd(text, start);
    if (end < 0) break;
    if (end + 1 - start > LONG_LITERAL) {
      const literal = text.slice(start, end + 1);
      let placeholder = byLiteral.get(literal);
      if (placeholder === undefined) {
        let decoded: string;
        try {
          decoded = JSON.parse(literal) as string;
        } catch {
          start = end + 1;
          continue; // An invalid literal is left to the library, which says what is wrong.
        }
        placeholder = `${nonce}:${strings.size}`;
        strings.set(placeholder, decoded);
        byLiteral.set(literal, placeholder);
      }
      short += `${text.slice(from, start)}"${placeholder}"`;
      cuts.push({ at: short.length, original: end + 1 - start, placeholder: placeholder.length + 2 });
      from = end + 1;
    }
    start = end + 1;
  }
  if (cuts.length === 0) return parseLossless(text, null, reviveNumber);
  short += text.slice(from);
  let parsed: unknown;
  try {
    parsed = parseLossless(short, null, reviveNumber);
  } catch (e) {
    const message = (e as Error).message
      .replace(/position (\d+)/, (_, p: string) => `position ${originalPosition(Number(p), cuts)}`)
      .replaceAll(new RegExp(`${nonce}:\\d+`, "g"), (p) => strings.get(p)!);
    throw new SyntaxError(message);
  }
  return restore(parsed, strings);
}

/** A position in the text with placeholders, as a position in the text as sent. */
function originalPosition(position: number, cuts: readonly Cut[]): number {
  let shift = 0;
  for (const cut of cuts) if (cut.at <= position) shift += cut.original - cut.placeholder;
  return position + shift;
}
