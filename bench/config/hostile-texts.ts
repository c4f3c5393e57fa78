/**
 * Hostile configuration texts (docs/configuration.md "Limits"), each about the size limit (1 MiB
 * of UTF-8) or a small text that expands: what the limits are for. Shared by `npm run
 * bench:config`, the limits' tests and the fault fuzzer (test/faults/fuzz.test.ts).
 */

/** 1 MiB of UTF-8, the configuration size limit. */
export const MIB = 1_048_576;

/** `unit(i)` repeated until the text would pass `bytes` (default 1 MiB less 100 bytes). */
function fill(head: string, unit: (i: number) => string, bytes = MIB - 100): string {
  const parts = [head];
  let size = Buffer.byteLength(head);
  for (let i = 0; ; i++) {
    const u = unit(i);
    size += Buffer.byteLength(u);
    if (size > bytes) break;
    parts.push(u);
  }
  return parts.join("");
}

/** A named hostile text. */
export interface HostileConfiguration {
  name: string;
  text: string;
}

/** The hostile texts, built anew at each call (a few MiB in all). */
export function hostileConfigurations(): HostileConfiguration[] {
  const levels = [
    "a: &a [x, x, x, x, x, x, x, x, x]",
    ...["b", "c", "d", "e", "f", "g"].map((k, i) => `${k}: &${k} [${Array(9).fill(`*${"abcdef"[i]}`).join(", ")}]`),
  ];
  return [
    { name: "duplicate keys (1 MiB)", text: fill("", () => "a: 1\n") },
    { name: "duplicate keys at the node limit", text: "a: 1\n".repeat(24_000) },
    { name: "distinct keys in one mapping (1 MiB)", text: fill("shared:\n", (i) => `  k${i}: 1\n`) },
    {
      name: "unknown top-level keys at the node limit",
      text: Array.from({ length: 24_000 }, (_, i) => `k${i}: 1\n`).join(""),
    },
    { name: "a huge list (1 MiB)", text: fill("shared:\n", (i) => `  - ${i}\n`) },
    { name: "a flow list (1 MiB)", text: `${fill("shared: [", (i) => `${i}, `)}0]\n` },
    { name: "deep flow nesting (200,000 brackets)", text: `shared: ${"[".repeat(200_000)}\n` },
    { name: "deep block nesting", text: fill("shared:\n", (i) => `${" ".repeat(i + 1)}- \n`, 600_000) },
    { name: "an alias bomb", text: `shared:\n${levels.map((l) => `  ${l}`).join("\n")}\n` },
    { name: "many aliases (1 MiB)", text: fill("shared:\n  - &a x\n", () => "  - *a\n") },
    {
      name: "many queue rules with errors (at the node limit)",
      text: fill("queue_rules:\n", (i) => `  - name: q${i}\n    batch_size: ${i}\n    bogus: 1\n`, 300_000),
    },
    { name: "one byte over the size limit", text: `queue_rules:\n  - name: q\n# ${"x".repeat(MIB - 27)}\n` },
    { name: "1.2 MB of two-byte characters", text: `queue_rules:\n  - name: q\n# ${"é".repeat(600_000)}\n` },
    {
      name: "a valid text of long values (1 MiB)",
      text: fill("queue_rules:\n  - name: q\nshared:\n", () => `  - ${"x".repeat(1_000)}\n`),
    },
  ];
}
