/**
 * Three-valued results while checks run (docs/conditions.md "Pending checks", docs/domain.md
 * §2.3): a check leaf is "pending" rather than false while a check it names has not concluded,
 * so the queue can tell "waiting for CI" from "CI failed".
 */
import { describe, expect, it } from "vitest";
import type { CheckState } from "../../services/forge/types.js";
import {
  evaluateCondition,
  evaluateConditions,
  parseCondition,
  parseConditionList,
  type Condition,
  type Truth,
} from "../../services/config/index.js";
import { checkRun, contextFor, labels, pullRequest } from "./builders.js";

function withChecks(checks: [string, CheckState][]) {
  return contextFor(pullRequest({ checks: checks.map(([n, s]) => checkRun(n, s)), labels: labels("ready") }));
}

function truth(text: string, checks: [string, CheckState][]): Truth {
  return evaluateCondition(parseCondition(text), withChecks(checks)).match;
}

describe("check leaves", () => {
  const rows: [string, [string, CheckState][], Truth][] = [
    ["check-success=ci", [["ci", "success"]], true],
    ["check-success=ci", [["ci", "pending"]], "pending"],
    ["check-success=ci", [["ci", "failure"]], false],
    ["check-success=ci", [], "pending"],
    ["check-success=ci", [["other", "success"]], "pending"],
    ["check-failure=ci", [["ci", "pending"]], "pending"],
    ["check-failure=ci", [["ci", "success"]], false],
    ["check-failure=ci", [["ci", "timed_out"]], true],
    ["-check-failure=ci", [["ci", "success"]], true],
    ["-check-failure=ci", [["ci", "pending"]], "pending"],
    ["-check-failure=ci", [["ci", "failure"]], false],
    ["check-success!=ci", [["ci", "success"]], false],
    ["check-success!=ci", [["ci", "failure"]], true],
    ["check-success!=ci", [["ci", "pending"]], "pending"],
    [
      "check-success~=^test",
      [
        ["test-a", "success"],
        ["test-b", "pending"],
      ],
      true,
    ],
    [
      "check-success~=^test",
      [
        ["test-a", "failure"],
        ["test-b", "pending"],
      ],
      "pending",
    ],
    ["check-success~=^test", [["test-a", "failure"]], false],
    ["check-success~=^test", [], "pending"],
    [
      "check-success*=test-*",
      [
        ["test-a", "failure"],
        ["test-b", "pending"],
      ],
      "pending",
    ],
    ["#check-failure=0", [["ci", "success"]], true],
    [
      "#check-failure=0",
      [
        ["ci", "success"],
        ["lint", "pending"],
      ],
      "pending",
    ],
    ["#check-failure>0", [["ci", "failure"]], true],
    [
      "#check-success>=2",
      [
        ["ci", "success"],
        ["lint", "pending"],
      ],
      "pending",
    ],
    ["check-pending=ci", [["ci", "pending"]], true],
    ["check-pending=ci", [["ci", "success"]], false],
    ["check-pending=ci", [], false],
    ["status-success=ci", [["ci", "pending"]], "pending"],
    ["check-success-or-neutral=ci", [["ci", "neutral"]], true],
    ["check-success-or-neutral=ci", [["ci", "pending"]], "pending"],
    ["check=ci", [["ci", "pending"]], true],
  ];
  it.each(rows)("%s with %j is %s", (text, checks, expected) => {
    expect(truth(text, checks)).toBe(expected);
  });

  it("matches a qualified check name (@<app>/<name>) against the app that posted the check", () => {
    const checks = (list: [string, CheckState, string][]) =>
      contextFor(pullRequest({ checks: list.map(([n, s, app]) => checkRun(n, s, app)), labels: labels("ready") }));
    const qualified = (text: string, list: [string, CheckState, string][]) =>
      evaluateCondition(parseCondition(text), checks(list)).match;
    expect(qualified("check-success=@github-actions/ci", [["ci", "success", "github-actions"]])).toBe(true);
    // The same name posted by another app is another check: it neither passes nor fails this leaf.
    expect(qualified("check-success=@github-actions/ci", [["ci", "success", "circleci"]])).toBe("pending");
    expect(
      qualified("check-success=@github-actions/ci", [
        ["ci", "success", "circleci"],
        ["ci", "failure", "github-actions"],
      ]),
    ).toBe(false);
    expect(qualified("check-success=@github-actions/ci", [["ci", "pending", "github-actions"]])).toBe("pending");
    expect(qualified("check-failure=@github-actions/ci", [["ci", "timed_out", "github-actions"]])).toBe(true);
    expect(
      qualified("check-success!=@github-actions/ci", [
        ["ci", "failure", "github-actions"],
        ["ci", "success", "circleci"],
      ]),
    ).toBe(true);
    expect(qualified("check-success-or-neutral=@github-actions/ci", [["ci", "neutral", "github-actions"]])).toBe(true);
    // A commit status has no app: only its bare name matches it.
    expect(qualified("check-success=@github-actions/ci", [["ci", "success", ""]])).toBe("pending");
    expect(qualified("check-success=ci", [["ci", "success", "github-actions"]])).toBe(true);
    expect(
      evaluateCondition(
        parseCondition("check-success=@github-actions/ci"),
        checks([
          ["ci", "pending", "github-actions"],
          ["lint", "success", "github-actions"],
        ]),
      ).relatedChecks,
    ).toEqual(["@github-actions/ci"]);
  });

  it("records the checks a leaf read", () => {
    const r = evaluateCondition(
      parseCondition("check-success~=^test"),
      withChecks([
        ["test-a", "failure"],
        ["test-b", "pending"],
        ["lint", "success"],
      ]),
    );
    expect(r.relatedChecks).toEqual(["test-a", "test-b"]);
  });
});

function list(...items: unknown[]): Condition[] {
  return parseConditionList(items).conditions as Condition[];
}

describe("groups with pending leaves (Kleene logic)", () => {
  const running: [string, CheckState][] = [["ci", "pending"]];
  const rows: [string, Condition[], Truth][] = [
    ["and(pending, true) is pending", list("check-success=ci", "label=ready"), "pending"],
    ["and(pending, false) is false", list("check-success=ci", "label=nope"), false],
    ["or(pending, true) is true", list({ or: ["check-success=ci", "label=ready"] }), true],
    ["or(pending, false) is pending", list({ or: ["check-success=ci", "label=nope"] }), "pending"],
    ["not(pending) is pending", list({ not: "check-success=ci" }), "pending"],
    [
      "nested and(or(pending, false), true) is pending",
      list({ and: [{ or: ["check-success=ci", "label=nope"] }, "label=ready"] }),
      "pending",
    ],
  ];
  it.each(rows)("%s", (_, conditions, expected) => {
    expect(evaluateConditions(conditions, withChecks(running)).match).toBe(expected);
  });

  it("collects related checks up the tree", () => {
    const tree = evaluateConditions(
      list({ or: ["check-success=ci", "check-success=lint"] }),
      withChecks([
        ["ci", "pending"],
        ["lint", "failure"],
      ]),
    );
    expect(tree.relatedChecks).toEqual(["ci", "lint"]);
  });
});
