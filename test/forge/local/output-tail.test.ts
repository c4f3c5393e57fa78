/**
 * The end of a check run's output that GetPullRequest carries (`yardmaster pr show --output`):
 * short outputs whole; long ones cut to the last 16 KiB from a line start, saying how much was cut.
 */
import { describe, expect, it } from "vitest";
import { outputTail, VIEW_OUTPUT_BYTES } from "../../../services/forge/local/forge-service.js";

describe("outputTail", () => {
  it("keeps a short output whole", () => {
    expect(outputTail("ok\nlint found 1 problem\n")).toBe("ok\nlint found 1 problem\n");
  });

  it("keeps the last lines of a long output and counts the bytes it cut", () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `line ${String(i).padStart(4, "0")} ${"é".repeat(10)}`);
    const output = `${lines.join("\n")}\nFAILED: 3 tests\n`;
    const tail = outputTail(output);
    const [note, ...rest] = tail.split("\n");
    const kept = rest.join("\n");
    expect(tail.endsWith("FAILED: 3 tests\n")).toBe(true);
    expect(rest[0]).toMatch(/^line \d{4} é{10}$/); // starts at a whole line
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(VIEW_OUTPUT_BYTES);
    expect(note).toBe(`[${Buffer.byteLength(output) - Buffer.byteLength(kept)} earlier bytes not shown]`);
    expect(output.endsWith(kept)).toBe(true);
  });
});
