/**
 * Reads the value of a condition leaf according to its attribute and operator
 * (docs/domain.md §2.1 step 5 and §2.2; docs/conditions.md "Values").
 */
import type { ConditionValue, Operator } from "../model.js";
import type { AttributeSpec } from "./attributes.js";
import { refuseMalformedCheckName } from "./check-names.js";
import { parseInterval, parseRelative, parseTimestamp } from "./datetime.js";
import { normalizeDequeueCode } from "./dequeue-codes.js";
import { compileGlob } from "./glob.js";
import { translatePythonRegex } from "./python-regex.js";
import { parseDayOfWeek, parseSchedule, parseTimeOfDay, splitZone } from "./schedule.js";
import { refuseTeamPattern } from "./team-values.js";
import { ValueError } from "./value-error.js";

const PERMISSIONS = ["none", "read", "triage", "write", "maintain", "admin"] as const;
const REVIEW_DECISIONS = ["APPROVED", "CHANGES_REQUESTED", "REVIEW_REQUIRED"];

/**
 * Removes matching surrounding quotes (`"x"` or `'x'`).
 * @throws ValueError when a value opens a quote it does not close.
 */
export function unquote(text: string): { value: string; quoted: boolean } {
  const first = text[0];
  if (first === '"' || first === "'") {
    if (text.length < 2 || text[text.length - 1] !== first) throw new ValueError(`unbalanced quotes in value ${text}`);
    return { value: text.slice(1, -1), quoted: true };
  }
  return { value: text, quoted: false };
}

const TEMPLATE = /^\{\{\s*([A-Za-z_][\w.]*)\s*\}\}$/;

/** `{{ author }}` -> template value; other `{{ ... }}` are refused. */
function template(text: string): ConditionValue | null {
  if (!text.includes("{{")) return null;
  const m = TEMPLATE.exec(text);
  if (m === null || m[1] !== "author")
    throw new ValueError(`only the template {{ author }} can be used in a condition value, got ${text}`);
  return { type: "template", template: "author" };
}

function integer(text: string, what: string): number {
  if (!/^[+-]?\d+$/.test(text)) throw new ValueError(`invalid value "${text}": expected ${what}`);
  return Number(text);
}

function ranged(text: string, min: number, max: number, what: string): number {
  const n = integer(text, `${what} from ${min} to ${max}`);
  if (n < min || n > max) throw new ValueError(`invalid value "${text}": expected ${what} from ${min} to ${max}`);
  return n;
}

const LOGIN = /^@?[A-Za-z0-9_.\-[\]]+(\/[A-Za-z0-9_.-]+)?$/;
const BRANCH_FORBIDDEN = /[~^: [\]\\]/;

function textValue(raw: string, allowEmpty: boolean): ConditionValue {
  const { value, quoted } = unquote(raw);
  if (value === "" && !(allowEmpty && quoted)) throw new ValueError("a value is expected after the operator");
  return template(value) ?? { type: "string", value };
}

/**
 * Parses the value of a leaf.
 * @param spec the attribute
 * @param operator the operator after alias resolution
 * @param length the `#` modifier is present
 * @throws ValueError naming the expected value.
 */
export function parseValue(spec: AttributeSpec, operator: Operator, length: boolean, raw: string): ConditionValue {
  if (raw === "") throw new ValueError("a value is expected after the operator");
  if (length) return { type: "number", value: integer(raw, "an integer (the length is compared)") };
  if (operator === "~=") {
    const { value } = unquote(raw);
    refuseTeamPattern(spec, operator, value);
    const r = translatePythonRegex(value);
    return { type: "regex", source: r.source, flags: r.flags };
  }
  if (operator === "*=") {
    const { value } = unquote(raw);
    refuseTeamPattern(spec, operator, value);
    compileGlob(value);
    return { type: "glob", pattern: value };
  }
  switch (spec.value) {
    case "text": {
      const v = textValue(raw, true);
      if (v.type === "string") refuseMalformedCheckName(spec, v.value);
      return v;
    }
    case "login": {
      const v = textValue(raw, false);
      if (v.type === "string" && !LOGIN.test(v.value)) {
        throw new ValueError(
          `invalid login "${v.value}": expected a login (letters, digits, "-", "[bot]"), @team or @org/team`,
        );
      }
      return v;
    }
    case "branch": {
      const v = textValue(raw, false);
      if (v.type === "string" && BRANCH_FORBIDDEN.test(v.value)) {
        throw new ValueError(
          `invalid branch name "${v.value}": a branch name cannot contain ~, ^, :, a space, [, ] or \\ (use ~= for a pattern)`,
        );
      }
      return v;
    }
    case "number":
      return { type: "number", value: integer(raw, "an integer") };
    case "timestamp": {
      const seconds = parseRelative(raw);
      return seconds !== null ? { type: "relative", seconds } : { type: "timestamp", value: parseTimestamp(raw) };
    }
    case "datetime":
      if (operator === "=" || operator === "!=") return { type: "interval", interval: parseInterval(raw) };
      return { type: "timestamp", value: parseTimestamp(raw) };
    case "schedule":
      return { type: "schedule", schedule: parseSchedule(raw) };
    case "permission": {
      const p = raw.toLowerCase();
      if (!(PERMISSIONS as readonly string[]).includes(p))
        throw new ValueError(`invalid permission "${raw}": expected one of ${PERMISSIONS.join(", ")}`);
      return { type: "permission", value: p as (typeof PERMISSIONS)[number] };
    }
    case "dequeue-reason": {
      const code = normalizeDequeueCode(unquote(raw).value);
      if (code === null)
        throw new ValueError(
          `invalid dequeue reason "${raw}": expected a dequeue code such as pr-merged, checks-failed or none`,
        );
      return { type: "string", value: code };
    }
    case "review-decision": {
      const d = unquote(raw).value.toUpperCase();
      if (!REVIEW_DECISIONS.includes(d))
        throw new ValueError(`invalid review decision "${raw}": expected one of ${REVIEW_DECISIONS.join(", ")}`);
      return { type: "string", value: d };
    }
    case "depends-on": {
      const d = unquote(raw).value;
      if (!/^([\w.-]+\/[\w.-]+)?#\d+$/.test(d))
        throw new ValueError(`invalid pull request reference "${raw}": expected #123 or owner/repo#123`);
      return { type: "string", value: d };
    }
    case "time-of-day": {
      const { body, zone } = splitZone(raw);
      const t = parseTimeOfDay(body);
      return { type: "time-of-day", hour: t.hour, minute: t.minute, timezone: zone ?? "UTC" };
    }
    case "day":
      return { type: "number", value: ranged(raw, 1, 31, "a day of the month") };
    case "month":
      return { type: "number", value: ranged(raw, 1, 12, "a month") };
    case "year":
      return { type: "number", value: ranged(raw, 2000, 9999, "a year") };
    case "day-of-week":
      return { type: "number", value: parseDayOfWeek(raw) };
    case "bool":
      throw new ValueError("a boolean attribute takes no value");
  }
}

/** The ordering of `sender-permission` values (none = 0 ... admin = 5). */
export function permissionRank(p: string): number {
  return (PERMISSIONS as readonly string[]).indexOf(p);
}
