/**
 * Properties of the conditions language that must hold for any input (fast-check): `=` and `!=`
 * on lists are complements, `-` negates, lengths count, renderings parse back, Kleene groups obey
 * De Morgan, literal regular expressions and globs match like plain text.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CheckState } from "../../services/forge/types.js";
import {
  evaluateCondition,
  evaluateConditions,
  leafToString,
  parseCondition,
  parseConditionList,
  type Condition,
} from "../../services/config/index.js";
import { globMatches } from "../../services/config/conditions/glob.js";
import { translatePythonRegex } from "../../services/config/conditions/python-regex.js";
import { checkRun, contextFor, labels, pullRequest } from "./builders.js";

const labelName = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);
const labelSet = fc.uniqueArray(labelName, { maxLength: 5 });

describe("list operators", () => {
  it("label=v and label!=v are complements, and -label=v negates label=v", () => {
    fc.assert(
      fc.property(labelSet, labelName, (names, v) => {
        const ctx = contextFor(pullRequest({ labels: labels(...names) }));
        const eq = evaluateCondition(parseCondition(`label=${v}`), ctx).match;
        const ne = evaluateCondition(parseCondition(`label!=${v}`), ctx).match;
        const neg = evaluateCondition(parseCondition(`-label=${v}`), ctx).match;
        expect(eq).toBe(names.includes(v));
        expect(ne).toBe(!eq);
        expect(neg).toBe(!eq);
      }),
    );
  });

  it("#label compares the number of labels", () => {
    fc.assert(
      fc.property(labelSet, fc.integer({ min: 0, max: 6 }), (names, n) => {
        const ctx = contextFor(pullRequest({ labels: labels(...names) }));
        expect(evaluateCondition(parseCondition(`#label>=${n}`), ctx).match).toBe(names.length >= n);
        expect(evaluateCondition(parseCondition(`#label<${n}`), ctx).match).toBe(names.length < n);
      }),
    );
  });
});

describe("rendering", () => {
  const attribute = fc.constantFrom("label", "title", "base", "author", "check-success", "files");
  const operator = fc.constantFrom("=", "!=", "~=", "*=", ">=", "<");
  it("a rendered leaf parses back to the same leaf", () => {
    fc.assert(
      fc.property(fc.boolean(), attribute, operator, labelName, (negate, attr, op, value) => {
        const leaf = parseCondition(`${negate ? "-" : ""}${attr}${op}${value}`);
        const again = parseCondition(leafToString(leaf));
        expect([again.attribute, again.negate, again.operator, again.value]).toEqual([
          leaf.attribute,
          leaf.negate,
          leaf.operator,
          leaf.value,
        ]);
      }),
    );
  });
});

describe("Kleene groups", () => {
  const state = fc.constantFrom<CheckState>("success", "failure", "pending");
  it("not(or(a, b)) equals and(not a, not b), pending included", () => {
    fc.assert(
      fc.property(state, state, (a, b) => {
        const ctx = contextFor(pullRequest({ checks: [checkRun("a", a), checkRun("b", b)] }));
        const left = parseConditionList([{ not: { or: ["check-success=a", "check-success=b"] } }])
          .conditions as Condition[];
        const right = parseConditionList([{ and: [{ not: "check-success=a" }, { not: "check-success=b" }] }])
          .conditions as Condition[];
        expect(evaluateConditions(left, ctx).match).toBe(evaluateConditions(right, ctx).match);
      }),
    );
  });
});

describe("literal patterns", () => {
  const text = fc.stringMatching(/^[A-Za-z0-9 _-]{0,12}$/);
  it("a regular expression without special characters matches where the text contains it", () => {
    fc.assert(
      fc.property(text, text, (pattern, value) => {
        const r = translatePythonRegex(pattern);
        expect(new RegExp(r.source, r.flags).test(value)).toBe(value.includes(pattern));
      }),
    );
  });

  it("a glob without special characters matches exactly itself", () => {
    fc.assert(
      fc.property(
        text.filter((t) => t !== ""),
        text,
        (pattern, value) => {
          expect(globMatches(pattern, value)).toBe(pattern === value);
          expect(globMatches(pattern, pattern)).toBe(true);
        },
      ),
    );
  });
});

describe("robustness", () => {
  it("parseCondition refuses any text only with a ConditionError", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        try {
          parseCondition(text);
        } catch (e) {
          expect((e as Error).name).toBe("ConditionError");
        }
      }),
      { numRuns: 2000 },
    );
  });
});
