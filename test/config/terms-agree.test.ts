/**
 * The check states and the abort and dequeue codes are declared once (config/), and the places
 * that must agree with them do: conditions accept every code the engine gives a pull request and
 * match it, `check-failure` holds exactly the failure states, and the stored forms (the local
 * forge's column, the activity log's schema) list the same values (docs/domain.md "Glossary",
 * §2.2, §3.9).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  CHECK_STATES,
  DEFINITIVE_CODES,
  evaluateCondition,
  FAILURE_CHECK_STATES,
  MERGED_CODES,
  parseCondition,
  REEMBARKED_CODES,
} from "../../services/config/index.js";
import { abortStatus } from "../../services/engine/index.js";
import { checkRun, contextFor, pullRequest } from "./builders.js";

const kebab = (code: string) => code.toLowerCase().replace(/_/g, "-");

function dequeuedWith(condition: string, dequeueReason?: string) {
  return evaluateCondition(parseCondition(condition), contextFor(pullRequest(), { queue: { dequeueReason } })).match;
}

/** The `one_of` list of a field of proto/yardmaster/v1/events.proto. */
function protoOneOf(field: string): string[] {
  const proto = readFileSync(new URL("../../proto/yardmaster/v1/events.proto", import.meta.url), "utf8");
  const line = proto.split("\n").find((l) => new RegExp(`string ${field} = \\d+ `).test(l));
  const list = line?.match(/one_of: \[([^\]]*)\]/)?.[1];
  if (list === undefined) throw new Error(`events.proto has no one_of for ${field}`);
  return JSON.parse(`[${list}]`);
}

describe("abort and dequeue codes", () => {
  const engineCodes = [...DEFINITIVE_CODES, ...REEMBARKED_CODES, ...MERGED_CODES];

  it.each(engineCodes)("queue-dequeue-reason matches %s, kebab-case or upper case", (code) => {
    expect(dequeuedWith(`queue-dequeue-reason=${kebab(code)}`, code)).toBe(true);
    expect(dequeuedWith(`queue-dequeue-reason=${code}`, code)).toBe(true);
    expect(dequeuedWith(`queue-dequeue-reason=${kebab(code)}`, "NONE")).toBe(false);
  });

  it("none is the reason of a pull request never dequeued, and an unknown code is refused", () => {
    expect(dequeuedWith("queue-dequeue-reason=none")).toBe(true);
    expect(() => parseCondition("queue-dequeue-reason=checks-exploded")).toThrow(/invalid dequeue reason/);
  });

  it("the former GitHub spelling of the stacked merge code names the hosting-platform code", () => {
    const condition = "queue-dequeue-reason=github-stacked-pull-request-merge-unsupported";
    expect(dequeuedWith(condition, "HOST_STACKED_PULL_REQUEST_MERGE_UNSUPPORTED")).toBe(true);
  });

  it("the engine gives each code the status of the list that declares it", () => {
    for (const code of DEFINITIVE_CODES) expect([code, abortStatus(code)]).toEqual([code, "DEFINITIVE"]);
    for (const code of REEMBARKED_CODES) expect([code, abortStatus(code)]).toEqual([code, "REEMBARKED"]);
  });

  it("events.proto's abort_code and dequeue_code values are the declared codes", () => {
    expect(new Set(protoOneOf("abort_code"))).toEqual(new Set([...DEFINITIVE_CODES, ...REEMBARKED_CODES]));
    expect(new Set(protoOneOf("dequeue_code"))).toEqual(
      new Set([...DEFINITIVE_CODES, ...REEMBARKED_CODES, ...MERGED_CODES]),
    );
  });
});

describe("check states", () => {
  it.each(CHECK_STATES)("check-failure holds a check in state %s exactly when it is a failure state", (state) => {
    const context = contextFor(pullRequest({ checks: [checkRun("ci", state)] }));
    const failed = (FAILURE_CHECK_STATES as readonly string[]).includes(state);
    expect(evaluateCondition(parseCondition("check-failure=ci"), context).match).toBe(
      failed ? true : state === "pending" ? "pending" : false,
    );
    expect(evaluateCondition(parseCondition("check=ci"), context).match).toBe(true);
  });

  it("the local forge's check run column accepts exactly the check states", () => {
    const sql = readFileSync(new URL("../../services/store/migrations/0003_local_forge.sql", import.meta.url), "utf8");
    const list = sql.match(/state text NOT NULL CHECK \(state IN \(('success'[^)]*)\)\)/)?.[1];
    expect(list?.split(",").map((s) => s.trim().replace(/'/g, ""))).toEqual([...CHECK_STATES]);
  });
});
