/**
 * REST bodies are parsed as lossless-json parses them (values, big integers kept exact, refusals
 * and their messages), with long strings decoded natively (services/offload/json-body.ts): the
 * same results for any JSON, and a body holding 1 MiB of text parsed without the library's
 * character-by-character loop.
 */
import fc from "fast-check";
import { isSafeNumber, parse as parseLossless } from "lossless-json";
import { describe, expect, it } from "vitest";
import { parseJsonBody } from "../../services/offload/json-body.js";

const reference = (text: string) => {
  try {
    return { value: parseLossless(text, null, (s) => (isSafeNumber(s) ? Number(s) : s)) };
  } catch (e) {
    return { error: (e as Error).message };
  }
};
const ours = (text: string) => {
  try {
    return { value: parseJsonBody(text) };
  } catch (e) {
    return { error: (e as Error).message };
  }
};

/** Strings long enough to be decoded natively, with escapes and quotes inside. */
const longString = fc
  .tuple(fc.string({ minLength: 250, maxLength: 400 }), fc.constantFrom("", '"', "\\", "\n", "é", "\u2028"))
  .map(([s, c]) => s + c + s);

describe("parseJsonBody", () => {
  it("gives lossless-json's value or message for any JSON, broken JSON and long strings", () => {
    const value = fc.jsonValue({ maxDepth: 3 }).chain((v) => fc.constant(v));
    const texts = fc.oneof(
      fc.tuple(value, longString, fc.constantFrom("a", "b")).map(([v, s, k]) =>
        // biome-ignore lint/correctness/noPrecisionLoss: the body must hold an integer beyond 2^53 (replaced in the text below)
        JSON.stringify({ [k]: v, service_yml: s, list: [s, 12345678901234567890, s] }).replace(
          "12345678901234567890",
          "123456789012345678901",
        ),
      ),
      fc
        .tuple(longString, fc.integer({ min: 1, max: 40 }))
        .map(([s, cut]) => JSON.stringify({ service_yml: s, more: [1, 2] }).slice(0, -cut)),
      fc.tuple(longString, longString).map(([a, b]) => `{"k": ${JSON.stringify(a)}, "k": ${JSON.stringify(b)}}`),
      fc.tuple(longString).map(([a]) => `{${JSON.stringify(a)}: 1, ${JSON.stringify(a)}: 2}`),
      fc.json({ maxDepth: 3 }),
    );
    fc.assert(
      fc.property(texts, (text) => {
        expect(ours(text)).toEqual(reference(text));
      }),
      { numRuns: 400, seed: 20261126 },
    );
  });

  it("keeps integers beyond 2^53 exact next to a long string", () => {
    expect(parseJsonBody(`{"n": 9223372036854775807, "s": ${JSON.stringify("x".repeat(1000))}}`)).toEqual({
      n: "9223372036854775807",
      s: "x".repeat(1000),
    });
  });
});
