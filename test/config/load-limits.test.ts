/**
 * The limits of a configuration text (docs/configuration.md "Limits"): each one refused with one
 * error naming what was exceeded and where, and the errors of a text listed 100 at most, then
 * one line counting the rest, so that the answer stays small whatever the text.
 */
import { describe, expect, it } from "vitest";
import { formatConfigError, loadConfiguration } from "../../services/config/index.js";

async function errors(text: string) {
  const r = await loadConfiguration(text);
  if (r.ok) throw new Error("expected errors, the configuration loaded");
  return r.errors;
}

describe("configuration limits", () => {
  it("lists the first 100 errors of 1 MiB of duplicate keys, then the count of the rest", async () => {
    const found = await errors("a: 1\n".repeat(24_000));
    expect(found).toHaveLength(101);
    expect(found[0]).toEqual({
      path: [],
      line: 2,
      column: 1,
      message: "YAML syntax error: Map keys must be unique (the same key appears twice in one mapping)",
    });
    expect(found[99].line).toBe(101);
    expect(found[100]).toEqual({
      path: [],
      line: null,
      column: null,
      message: "and 23899 more errors (the first 100 are listed)",
    });
    expect(JSON.stringify(found.map(formatConfigError)).length).toBeLessThan(20_000);
  });

  it("caps schema errors the same way, in document order", async () => {
    const found = await errors(Array.from({ length: 5_000 }, (_, i) => `key${i}: 1`).join("\n"));
    expect(found.slice(0, 2).map((e) => [e.path, e.line])).toEqual([
      [["key0"], 1],
      [["key1"], 2],
    ]);
    expect(found[100].message).toBe("and 4900 more errors (the first 100 are listed)");
  });

  it.each([
    [
      "nodes",
      `shared:\n${"  - x\n".repeat(50_001)}`,
      "the file has more than 50000 YAML nodes (keys, values, list items, mappings and lists): a configuration this large is not read",
      49_999,
    ],
    [
      "nesting",
      `shared: ${"[".repeat(100)}${"]".repeat(100)}\n`,
      "the mappings and lists nest more than 64 levels deep: flatten the structure",
      1,
    ],
    [
      "aliases",
      `shared:\n  - &a x\n${"  - *a\n".repeat(1_001)}`,
      "the file has more than 1000 aliases (*name): write the values out, or use fewer aliases",
      1_003,
    ],
  ])("refuses a text over the limit of %s, naming it and where it was crossed", async (_, text, message, line) => {
    expect(await errors(text)).toEqual([
      { path: [], line, column: expect.any(Number), message: `YAML error: ${message}` },
    ]);
  });

  it("loads a text at the limits: 64 levels, 1,000 aliases, many nodes", async () => {
    const deep = `queue_rules:\n  - name: q\nshared: ${"[".repeat(62)}${"]".repeat(62)}\n`;
    expect((await loadConfiguration(deep)).ok).toBe(true);
    expect(
      (await loadConfiguration(`queue_rules:\n  - name: q\nshared:\n  - &a x\n${"  - *a\n".repeat(1_000)}`)).ok,
    ).toBe(true);
    expect((await loadConfiguration(`queue_rules:\n  - name: q\nshared:\n${"  - x\n".repeat(40_000)}`)).ok).toBe(true);
  });
});
