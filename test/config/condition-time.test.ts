/**
 * Time-based conditions and the next instant their result can change (docs/conditions.md "Timestamps",
 * docs/domain.md §2.3 "Next evaluation time"), with an injected clock. NOON is Wednesday
 * 2026-03-18 12:00 UTC; Europe/Paris is UTC+1 until 2026-03-29 01:00 UTC, then UTC+2.
 */
import { describe, expect, it } from "vitest";
import {
  evaluateCondition,
  evaluateConditions,
  parseCondition,
  parseConditionList,
  type Condition,
} from "../../services/config/index.js";
import { commit, contextFor, NOON, pullRequest } from "./builders.js";

const snapshot = pullRequest({
  createdAt: new Date("2026-03-10T08:00:00Z"),
  updatedAt: new Date("2026-03-15T08:00:00Z"),
  commits: [commit({ date: new Date("2026-03-10T09:00:00Z") }), commit({ date: new Date("2026-03-17T09:00:00Z") })],
});

type Row = [condition: string, now: string, match: boolean, next: string | null];

function check([text, now, match, next]: Row): void {
  const r = evaluateCondition(parseCondition(text), contextFor(snapshot, { now: new Date(now) }));
  expect({ match: r.match, next: r.nextChangeAt?.toISOString() ?? null }).toEqual({ match, next });
}

const noon = NOON.toISOString();

describe("timestamps against relative times", () => {
  const rows: Row[] = [
    ["updated-at<7 days ago", noon, false, "2026-03-22T08:00:00.001Z"],
    ["updated-at<7 days ago", "2026-03-23T00:00:00Z", true, null],
    ["updated-at>7 days ago", noon, true, "2026-03-22T08:00:00.000Z"],
    ["updated-at<=7 days ago", noon, false, "2026-03-22T08:00:00.000Z"],
    ["updated-at>=7 days ago", noon, true, "2026-03-22T08:00:00.001Z"],
    ["created-at<=24h ago", noon, true, null],
    ["created-at>2026-03-01", noon, true, null],
    ["commits[*].date_committer > 10 days ago", noon, true, "2026-03-20T09:00:00.000Z"],
    ["commits[*].date_committer < 1 days ago", noon, true, null],
    ["merged-at<1 day ago", noon, false, null],
  ];
  it.each(rows)("%s at %s", (...row) => check(row));
});

describe("current-datetime", () => {
  const rows: Row[] = [
    ["current-datetime>=2026-04-01T00:00", noon, false, "2026-04-01T00:00:00.000Z"],
    ["current-datetime<2026-04-01T00:00", noon, true, "2026-04-01T00:00:00.000Z"],
    ["current-datetime>2026-04-01T00:00", noon, false, "2026-04-01T00:00:00.001Z"],
    ["current-datetime<=2026-03-01T00:00", noon, false, null],
    ["current-datetime>=2026-04-01T00:00[Europe/Paris]", noon, false, "2026-03-31T22:00:00.000Z"],
    ["current-datetime=XXXX-12-25T00:00/XXXX-12-25T23:59[Europe/Paris]", noon, false, "2026-12-24T23:00:00.000Z"],
    [
      "current-datetime=XXXX-12-25T00:00/XXXX-12-25T23:59[Europe/Paris]",
      "2026-12-25T10:00:00Z",
      true,
      "2026-12-25T23:00:00.000Z",
    ],
    ["current-datetime!=XXXX-12-25T00:00/XXXX-12-25T23:59[Europe/Paris]", noon, true, "2026-12-24T23:00:00.000Z"],
    ["current-datetime=XXXX-XX-01T00:00/XXXX-XX-01T23:59", noon, false, "2026-04-01T00:00:00.000Z"],
    ["current-datetime=XXXX-XX-01T00:00/XXXX-XX-01T23:59", "2026-04-01T05:00:00Z", true, "2026-04-02T00:00:00.000Z"],
    ["current-datetime=2026-03-01/2026-03-31", noon, true, "2026-04-01T00:00:00.000Z"],
    ["current-datetime=XXXX-12-24T00:00/XXXX-01-02T23:59", "2026-12-31T12:00:00Z", true, "2027-01-03T00:00:00.000Z"],
  ];
  it.each(rows)("%s at %s", (...row) => check(row));
});

describe("schedules", () => {
  const rows: Row[] = [
    ["schedule=Mon-Fri 09:00-17:30[Europe/Paris]", noon, true, "2026-03-18T16:31:00.000Z"],
    ["schedule=Mon-Fri 09:00-17:30[Europe/Paris]", "2026-03-20T17:00:00Z", false, "2026-03-23T08:00:00.000Z"],
    ["schedule=09:00-17:00[Europe/Paris]", "2026-03-28T20:00:00Z", false, "2026-03-29T07:00:00.000Z"],
    ["schedule!=SAT-SUN", noon, true, "2026-03-21T00:00:00.000Z"],
    ["schedule=22:00-06:00", "2026-03-18T23:00:00Z", true, "2026-03-19T06:01:00.000Z"],
    ["schedule=22:00-06:00", noon, false, "2026-03-18T22:00:00.000Z"],
    ["schedule=Fri-Mon", noon, false, "2026-03-20T00:00:00.000Z"],
    ["schedule=Wed", noon, true, "2026-03-19T00:00:00.000Z"],
    ["schedule=Mon-Sun", noon, true, null],
    ["schedule=00:00-23:59", noon, true, null],
  ];
  it.each(rows)("%s at %s", (...row) => check(row));
});

describe("legacy clock attributes", () => {
  const rows: Row[] = [
    ["current-time>=09:00", noon, true, "2026-03-19T00:00:00.000Z"],
    ["current-time<=11:00", noon, false, "2026-03-19T00:00:00.000Z"],
    ["current-time>=13:00[Europe/Paris]", noon, true, "2026-03-18T23:00:00.000Z"],
    ["current-day-of-week=sat", noon, false, "2026-03-21T00:00:00.000Z"],
    ["current-month=12", noon, false, "2026-12-01T00:00:00.000Z"],
    ["current-year>=2027", noon, false, "2027-01-01T00:00:00.000Z"],
    ["current-day=18", noon, true, "2026-03-19T00:00:00.000Z"],
    ["current-timestamp<2026-04-01T00:00", noon, true, "2026-04-01T00:00:00.000Z"],
  ];
  it.each(rows)("%s at %s", (...row) => check(row));
});

describe("groups", () => {
  it("take the earliest next change of their children; non-time leaves have none", () => {
    const conditions = parseConditionList(["schedule=Mon-Fri", "updated-at<7 days ago", "label=x"])
      .conditions as Condition[];
    const tree = evaluateConditions(conditions, contextFor(snapshot));
    expect(tree.nextChangeAt?.toISOString()).toBe("2026-03-21T00:00:00.000Z");
    expect(tree.subconditions[2].nextChangeAt).toBeNull();
  });

  it("evaluates the same conditions differently when the injected clock moves past the next change", () => {
    const leaf = parseCondition("schedule=Mon-Fri 09:00-17:30[Europe/Paris]");
    const first = evaluateCondition(leaf, contextFor(snapshot));
    const later = evaluateCondition(leaf, contextFor(snapshot, { now: first.nextChangeAt! }));
    expect([first.match, later.match]).toEqual([true, false]);
  });
});
