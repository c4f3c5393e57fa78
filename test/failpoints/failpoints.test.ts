/**
 * Failpoints (docs/reliability.md "Failpoints"): the grammar of YARDMASTER_FAILPOINTS (fail-rs'
 * terms: `[count*]action[(argument)]` joined by `->`), what each action does at a hit, and that a
 * disarmed failpoint does nothing. `kill` is exercised by the fault tests (test/faults/), in a
 * process of its own.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  armFailpoint,
  armFailpointsFromEnvironment,
  disarmAll,
  disarmFailpoint,
  failpoint,
  type FailpointError,
  FailpointSpecError,
  parseFailpointSpec,
} from "../../services/failpoints/index.js";

afterEach(() => disarmAll());

/** What the next `n` hits of `name` do: "pass", "slept" or the thrown message. */
async function hits(name: string, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    try {
      const pending = failpoint(name);
      if (pending === undefined) out.push("pass");
      else {
        await pending;
        out.push("slept");
      }
    } catch (e) {
      out.push((e as FailpointError).message);
    }
  }
  return out;
}

describe("the grammar", () => {
  it("reads entries separated by ; with terms joined by ->", () => {
    expect(parseFailpointSpec(" a.b=kill ; c-d=2*off->throw(disk full) ;x_y=sleep(200);")).toEqual(
      new Map([
        ["a.b", [{ count: null, action: { kind: "kill" } }]],
        [
          "c-d",
          [
            { count: 2, action: { kind: "off" } },
            { count: null, action: { kind: "throw", message: "disk full" } },
          ],
        ],
        ["x_y", [{ count: null, action: { kind: "sleep", ms: 200 } }]],
      ]),
    );
    expect(parseFailpointSpec("")).toEqual(new Map());
  });

  it.each([
    ["name", "expected name=actions"],
    ["a=explode", 'unknown action "explode"'],
    ["a=sleep(soon)", "sleep needs whole milliseconds"],
    ["a=0*kill", "count must be a whole number of at least 1"],
    ["a=kill(now)", "kill takes no argument"],
    ["a=kill->", "an empty term"],
    ["a b=kill", "a failpoint name is"],
    ["a=kill;a=off", '"a" is given twice'],
  ])("refuses %s, naming what is wrong", (spec, message) => {
    expect(() => parseFailpointSpec(spec)).toThrow(FailpointSpecError);
    expect(() => parseFailpointSpec(spec)).toThrow(message);
  });

  it("names the variable when the environment's spec does not parse", () => {
    expect(() => armFailpointsFromEnvironment({ YARDMASTER_FAILPOINTS: "x=boom" })).toThrow(
      /^YARDMASTER_FAILPOINTS: "boom": unknown action/,
    );
  });
});

describe("hits", () => {
  it("do nothing while disarmed, and nothing to await", async () => {
    expect(failpoint("anything")).toBeUndefined();
    armFailpoint("other", "throw");
    expect(failpoint("anything")).toBeUndefined();
  });

  it("follow the terms in order: counted ones for that many hits, then the next", async () => {
    armFailpoint("p", "2*off->1*throw(third)->sleep(1)");
    expect(await hits("p", 5)).toEqual(["pass", "pass", "failpoint p: third", "slept", "slept"]);
  });

  it("are off once every counted term is used up", async () => {
    armFailpoint("p", "1*throw(once)");
    expect(await hits("p", 3)).toEqual(["failpoint p: once", "pass", "pass"]);
  });

  it("sleep for the milliseconds given", async () => {
    armFailpoint("p", "sleep(120)");
    const start = Date.now();
    await failpoint("p");
    expect(Date.now() - start).toBeGreaterThanOrEqual(100);
  });

  it("run a test's callback, and stop once disarmed", async () => {
    const seen: string[] = [];
    armFailpoint("p", (name) => void seen.push(name));
    await failpoint("p");
    disarmFailpoint("p");
    expect(failpoint("p")).toBeUndefined();
    expect(seen).toEqual(["p"]);
  });

  it("armed from the environment, name each failpoint armed", async () => {
    expect(armFailpointsFromEnvironment({ YARDMASTER_FAILPOINTS: "a=throw(from env);b=off" })).toEqual(["a", "b"]);
    expect(await hits("a", 1)).toEqual(["failpoint a: from env"]);
    expect(armFailpointsFromEnvironment({})).toEqual([]);
  });
});
