/**
 * Merge conditions false only because of time (services/config/rules/schedule-verdict.ts,
 * docs/merge-queue.md rule 5): evaluated with the real conditions module at the instants their
 * time-based leaves flip. NOON is Wednesday 2026-03-18 12:00 UTC.
 */
import { describe, expect, it } from "vitest";
import type { CheckState } from "../../services/forge/types.js";
import { evaluateConditions, parseConditionList, type Condition } from "../../services/config/index.js";
import { scheduleVerdict } from "../../services/config/rules/schedule-verdict.js";
import { checkRun, contextFor, NOON, pullRequest } from "./builders.js";

function verdict(conditions: unknown[], ci: CheckState, now: Date) {
  const parsed = parseConditionList(conditions).conditions as Condition[];
  const snapshot = pullRequest({ checks: [checkRun("ci", ci)] });
  return scheduleVerdict((at) => evaluateConditions(parsed, contextFor(snapshot, { now: at })), now);
}

const officeHours = "schedule=Mon-Fri 09:00-17:00[UTC]";
const friday18 = new Date("2026-03-20T18:00:00Z");

describe("a merge window in the merge conditions", () => {
  it("holds inside the window: true, nothing to wait for", () => {
    expect(verdict([officeHours, "check-success=ci"], "success", NOON)).toEqual({ truth: true, opensAt: null });
  });

  it("is false until the window opens when only the window is closed (Friday evening → Monday 09:00)", () => {
    expect(verdict([officeHours, "check-success=ci"], "success", friday18)).toEqual({
      truth: false,
      opensAt: Date.parse("2026-03-23T09:00:00Z"),
    });
  });

  it("is a plain failure when a check failed, whatever the window", () => {
    expect(verdict([officeHours, "check-success=ci"], "failure", friday18)).toEqual({ truth: false, opensAt: null });
  });

  it("stays pending while the CI runs, even outside the window", () => {
    expect(verdict([officeHours, "check-success=ci"], "pending", friday18)).toEqual({
      truth: "pending",
      opensAt: null,
    });
  });

  it("follows several flips: two windows a day, the first closed, opens at the second", () => {
    const twoWindows = { or: ["schedule=Mon-Fri 09:00-10:00[UTC]", "schedule=Mon-Fri 14:00-15:00[UTC]"] };
    expect(verdict([twoWindows, "check-success=ci"], "success", NOON)).toEqual({
      truth: false,
      opensAt: Date.parse("2026-03-18T14:00:00Z"),
    });
  });

  it("never opens for a condition that no time can make true", () => {
    expect(
      verdict(["schedule=Mon-Fri 09:00-17:00[UTC]", "schedule!=Mon-Fri 09:00-17:00[UTC]"], "success", NOON),
    ).toEqual({ truth: false, opensAt: null });
  });
});
