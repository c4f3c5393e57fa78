/**
 * Bad input never crashes the loader (house rule "it never crashes"): any YAML value in any
 * section gives either a configuration or errors that each name a path.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { loadConfiguration } from "../../services/config/index.js";

const SECTIONS = [
  "queue_rules",
  "merge_queue",
  "priority_rules",
  "scopes",
  "partition_rules",
  "pull_request_rules",
  "commands_restrictions",
  "merge_protections",
  "merge_protections_settings",
  "defaults",
  "extends",
  "nonsense",
];

const leafish = fc.oneof(
  fc.constantFrom("base=main", "label=x", "-draft", "#files>1", "schedule=Mon-Fri", "nope=1", ""),
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
);
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  any: fc.oneof(
    { depthSize: "small" },
    leafish,
    fc.array(tie("any"), { maxLength: 3 }),
    fc.dictionary(
      fc.constantFrom("name", "conditions", "actions", "batch_size", "merge", "and", "or", "not", "queue", "x"),
      tie("any"),
      { maxKeys: 3 },
    ),
  ),
})).any;

describe("loader robustness", () => {
  it("returns a configuration or located errors for any section content", async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...SECTIONS), value, { maxKeys: 4 }), async (file) => {
        const r = await loadConfiguration(stringify(file));
        if (!r.ok) {
          expect(r.errors.length).toBeGreaterThan(0);
          for (const e of r.errors) expect(typeof e.message).toBe("string");
        }
      }),
      { numRuns: 500 },
    );
  });
});
