/**
 * The leaf grammar of the conditions language (docs/domain.md §2.1, docs/conditions.md
 * "Grammar"):
 *
 *     condition := WS* [ "-" | "¬" | "+" ] WS* [ "#" WS* ] attribute WS* [ operator WS* value ]
 *     operator  := "~=" | "*=" | ">=" | "<=" | "≥" | "≤" | "<" | ">" | "==" | "!=" | "≠" | "=" | ":"
 *
 * Aliases are resolved (`:`/`==` -> `=`, `≠` -> `!=`, `≥` -> `>=`, `≤` -> `<=`). Attributes are
 * names of the catalogue (attributes.ts) or `commits[<index>|*].<field>`.
 */
import type { ConditionLeaf, Operator } from "../model.js";
import { didYouMean } from "../suggest.js";
import { ATTRIBUTES, type AttributeSpec, commitFieldSpec, COMMIT_FIELDS, NUMBER_OPERATORS } from "./attributes.js";
import { ValueError } from "./value-error.js";
import { parseValue } from "./values.js";

/** A condition that cannot be parsed; `message` is the sentence shown to users. */
export class ConditionError extends Error {
  override readonly name = "ConditionError";
  /**
   * @param condition the condition text as written
   * @param reason what is wrong and what is expected
   */
  constructor(
    readonly condition: string,
    readonly reason: string,
  ) {
    super(
      condition.trim() === "" ? `Invalid condition: ${reason}` : `Invalid condition "${condition.trim()}": ${reason}`,
    );
  }
}

const OPERATORS: [string, Operator][] = [
  ["~=", "~="],
  ["*=", "*="],
  [">=", ">="],
  ["<=", "<="],
  ["!=", "!="],
  ["==", "="],
  ["≥", ">="],
  ["≤", "<="],
  ["≠", "!="],
  ["<", "<"],
  [">", ">"],
  ["=", "="],
  [":", "="],
];

const COMMIT_ATTRIBUTE = /^commits\[(-?\d+|\*)\]\.([A-Za-z_]+)/;

/**
 * The specification of an attribute name, including `commits[<i>|*].<field>` names; null when
 * unknown.
 */
export function specFor(attribute: string): AttributeSpec | null {
  const m = COMMIT_ATTRIBUTE.exec(attribute);
  if (m !== null && m[0] === attribute) return commitFieldSpec(attribute, m[2], m[1] === "*");
  return ATTRIBUTES.get(attribute) ?? null;
}

function readAttribute(rest: string, text: string): { name: string; spec: AttributeSpec; rest: string } {
  const commit = COMMIT_ATTRIBUTE.exec(rest);
  if (commit !== null) {
    const spec = commitFieldSpec(commit[0], commit[2], commit[1] === "*");
    if (spec === null) {
      throw new ConditionError(
        text,
        `unknown commit field "${commit[2]}": expected one of ${[...COMMIT_FIELDS.keys()].join(", ")}`,
      );
    }
    return { name: commit[0], spec, rest: rest.slice(commit[0].length) };
  }
  if (rest.startsWith("commits[")) {
    throw new ConditionError(
      text,
      "expected commits[<index>].<field> or commits[*].<field>, where <index> is an integer (0 is the first commit, -1 the last)",
    );
  }
  const m = /^[A-Za-z][A-Za-z0-9_-]*/.exec(rest);
  if (m === null) throw new ConditionError(text, `an attribute name is expected, got "${rest}"`);
  const name = m[0];
  const spec = ATTRIBUTES.get(name);
  if (spec === undefined)
    throw new ConditionError(text, `unknown attribute "${m[0]}"${didYouMean(m[0], ATTRIBUTES.keys())}`);
  return { name, spec, rest: rest.slice(name.length) };
}

function readOperator(rest: string): { operator: Operator; written: string; rest: string } | null {
  for (const [written, operator] of OPERATORS) {
    if (rest.startsWith(written)) return { operator, written, rest: rest.slice(written.length) };
  }
  return null;
}

/**
 * Parses one leaf condition such as `-#label>=2`, `check-success=ci` or `schedule=Mon-Fri`.
 * @throws ConditionError whose message names the condition and what is wrong: empty condition,
 * incomplete condition, unknown attribute, operator not allowed, bad value.
 */
export function parseCondition(text: string): ConditionLeaf {
  const trimmed = text.trim();
  if (trimmed === "") throw new ConditionError(text, "the condition is empty");
  let rest = trimmed;
  let negate = false;
  if (rest[0] === "-" || rest[0] === "¬" || rest[0] === "+") {
    negate = rest[0] !== "+";
    rest = rest.slice(1).trimStart();
  }
  let length = false;
  if (rest[0] === "#") {
    length = true;
    rest = rest.slice(1).trimStart();
  }
  if (rest === "") throw new ConditionError(text, "incomplete condition: an attribute is expected after the modifiers");
  const attr = readAttribute(rest, text);
  const { spec } = attr;
  rest = attr.rest.trimStart();
  if (spec.injectedOnly)
    throw new ConditionError(
      text,
      `attribute "${attr.name}" is set by Yardmaster (branch protection) and cannot be written in a configuration`,
    );
  if (negate && !spec.negate)
    throw new ConditionError(
      text,
      `"-" cannot be used with attribute "${attr.name}"; write the opposite operator instead`,
    );
  if (length && spec.length === "no")
    throw new ConditionError(text, `"#" cannot be used with attribute "${attr.name}"`);
  if (!length && spec.length === "required")
    throw new ConditionError(text, `attribute "${attr.name}" can only be used with "#", e.g. "#${attr.name}>0"`);
  if (!length && spec.objectList)
    throw new ConditionError(
      text,
      `attribute "${attr.name}" can only be used as "#${attr.name}"${attr.name === "commits" ? ' or "commits[<index>|*].<field>"' : ""}`,
    );

  if (spec.value === "bool") {
    if (rest !== "") {
      const op = readOperator(rest);
      throw new ConditionError(
        text,
        op !== null
          ? `operators are invalid for boolean attribute "${attr.name}": write "${attr.name}" or "-${attr.name}"`
          : `unexpected text "${rest}" after boolean attribute "${attr.name}"`,
      );
    }
    return { kind: "leaf", text: trimmed, attribute: attr.name, negate, length, operator: null, value: null };
  }
  if (rest === "")
    throw new ConditionError(text, `incomplete condition: an operator and a value are expected after "${attr.name}"`);
  const op = readOperator(rest);
  if (op === null)
    throw new ConditionError(text, `unknown operator at "${rest}": expected one of =, !=, ~=, *=, >=, <=, <, >`);
  const allowed = length ? NUMBER_OPERATORS : spec.operators;
  if (!allowed.includes(op.operator)) {
    throw new ConditionError(
      text,
      `operator "${op.written}" is not allowed with ${length ? "#" : ""}${attr.name}; allowed: ${allowed.join(", ")}`,
    );
  }
  try {
    const valueText = op.rest.trim();
    const value = parseValue(spec, op.operator, length, valueText);
    return {
      kind: "leaf",
      text: trimmed,
      attribute: attr.name,
      negate,
      length,
      operator: op.operator,
      value,
      valueText,
    };
  } catch (e) {
    if (e instanceof ValueError) throw new ConditionError(text, e.message);
    throw e;
  }
}
