/**
 * One line of an events file (`yardmaster events import FILE.ndjson`, docs/activity-log.md
 * "Ingest"): a JSON object with the keys of AppendEvents' EventInput in snake_case — `type`,
 * `repository`, `pull_request` (integer or null), `base_ref` (string or null), `trigger`,
 * `received_at` (RFC 3339 with a UTC offset, or null/absent for "when stored"), `metadata`.
 * Numbers are parsed losslessly, so a pull request number up to 2^63-1 keeps every digit; the
 * event is then checked by the same rules as AppendEvents (event-row.ts checkEvent).
 */
import { isLosslessNumber, parse, type LosslessNumber } from "lossless-json";
import { isRfc3339, type FieldViolation } from "../contracts/index.js";
import { checkEvent, type EventInput } from "./event-row.js";

const KEYS = new Set(["type", "repository", "pull_request", "base_ref", "trigger", "received_at", "metadata"]);
const INTEGER = /^(0|[1-9][0-9]*)$/;

/** Lossless numbers back to JS numbers (metadata travels as google.protobuf.Struct, whose numbers are doubles). */
function plain(v: unknown): unknown {
  if (isLosslessNumber(v)) return Number((v as LosslessNumber).value);
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

const kind = (v: unknown) =>
  v === null
    ? "null"
    : Array.isArray(v)
      ? "an array"
      : isLosslessNumber(v)
        ? "a number"
        : typeof v === "object"
          ? "an object"
          : `a ${typeof v}`;

/**
 * Parses and checks one line.
 * @returns the event, or the violations (fields named as in the line: "metadata.queue_name")
 */
export function parseEventLine(
  text: string,
): { event: EventInput; violations: [] } | { event: null; violations: FieldViolation[] } {
  let value: unknown;
  try {
    value = parse(text);
  } catch (e) {
    return { event: null, violations: [{ field: "line", description: `is not valid JSON (${(e as Error).message})` }] };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return { event: null, violations: [{ field: "line", description: `must be a JSON object, not ${kind(value)}` }] };
  const o = value as Record<string, unknown>;
  const out: FieldViolation[] = [];
  for (const k of Object.keys(o)) if (!KEYS.has(k)) out.push({ field: k, description: "unknown field" });
  const text_ = (k: string, nullable: boolean): string | null => {
    const v = o[k];
    if ((v === undefined || v === null) && nullable) return null;
    if (typeof v === "string") return v;
    out.push({
      field: k,
      description: v === undefined ? "is required" : `must be a string${nullable ? " or null" : ""}, not ${kind(v)}`,
    });
    return null;
  };
  const type = text_("type", false);
  const repository = text_("repository", false);
  const trigger = text_("trigger", false);
  const baseRef = text_("base_ref", true);
  let pullRequest: bigint | null = null;
  const pr = o.pull_request;
  if (pr !== undefined && pr !== null) {
    if (isLosslessNumber(pr) && INTEGER.test((pr as LosslessNumber).value))
      pullRequest = BigInt((pr as LosslessNumber).value);
    else out.push({ field: "pull_request", description: "must be a non-negative integer or null" });
  }
  let receivedAt: Date | null = null;
  const at = text_("received_at", true);
  if (at !== null) {
    if (isRfc3339(at)) receivedAt = new Date(at);
    else
      out.push({
        field: "received_at",
        description: "must be an RFC 3339 date-time with a UTC offset, e.g. 2026-11-22T10:00:00Z",
      });
  }
  const metadata = o.metadata;
  if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata))
    out.push({
      field: "metadata",
      description: metadata === undefined ? "is required" : `must be an object, not ${kind(metadata)}`,
    });
  if (out.length) return { event: null, violations: out };
  const event: EventInput = {
    type: type!,
    repository: repository!,
    pullRequest,
    baseRef,
    trigger: trigger!,
    receivedAt,
    metadata: plain(metadata) as Record<string, unknown>,
  };
  const violations = checkEvent(event, "");
  return violations.length ? { event: null, violations } : { event, violations: [] };
}
