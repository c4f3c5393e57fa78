/**
 * When the clock alone changes a pull request rule's verdict (services/config/rules/
 * pull-rule-actions.ts `pullRulesWakeUp`, docs/workflow-automation.md "When actions run", item 6):
 * the instant the runner evaluates the rules again without an event. NOON is Wednesday 2026-03-18
 * 12:00 UTC; the pull request was last updated 2026-03-15 08:00 UTC.
 */
import { describe, expect, it } from "vitest";
import { loadConfiguration, pullRulesWakeUp } from "../../services/config/index.js";
import { labels, NOON, pullRequest } from "./builders.js";

async function wakeUp(rules: string, pr = pullRequest(), now = NOON): Promise<string | null> {
  const loaded = await loadConfiguration(`pull_request_rules:\n${rules}`);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  return pullRulesWakeUp(loaded.config.pull_request_rules, pr, now)?.toISOString() ?? null;
}

const rule = (conditions: string, actions = "label: {toggle: [t]}") =>
  `  - name: r${conditions.length}\n    conditions: ${conditions}\n    actions: {${actions}}\n`;

describe("the next instant the clock changes a pull request rule's verdict", () => {
  it("is the boundary of current-datetime, when the rule starts and when it stops matching", async () => {
    const window = '["current-datetime>=2026-03-18T12:00:05", "current-datetime<2026-03-18T12:00:10"]';
    expect(await wakeUp(rule(window))).toBe("2026-03-18T12:00:05.000Z");
    expect(await wakeUp(rule(window), pullRequest(), new Date("2026-03-18T12:00:07Z"))).toBe(
      "2026-03-18T12:00:10.000Z",
    );
    expect(await wakeUp(rule(window), pullRequest(), new Date("2026-03-18T12:00:10Z"))).toBeNull();
  });

  it("is the end of an open schedule window and the start of the next one", async () => {
    const office = '["schedule=Mon-Fri 09:00-17:00[UTC]"]';
    expect(await wakeUp(rule(office))).toBe("2026-03-18T17:01:00.000Z");
    expect(await wakeUp(rule(office), pullRequest(), new Date("2026-03-20T18:00:00Z"))).toBe(
      "2026-03-23T09:00:00.000Z",
    );
  });

  it("follows a relative time: `updated-at<7 days ago` starts holding 7 days after the update", async () => {
    expect(await wakeUp(rule('["updated-at<7 days ago"]'))).toBe("2026-03-22T08:00:00.001Z");
  });

  it("skips flips that cannot change the verdict (a schedule under a missing label)", async () => {
    const gated = '["label=nightly", "schedule=Mon-Fri 09:00-17:00[UTC]"]';
    const at = await wakeUp(rule(gated));
    // No flip within the 8-day horizon changes it: looked at again only past the horizon.
    expect(Date.parse(at!) - NOON.getTime()).toBeGreaterThan(8 * 24 * 3_600_000);
    expect(await wakeUp(rule(gated), pullRequest({ labels: labels("nightly") }))).toBe("2026-03-18T17:01:00.000Z");
  });

  it("takes the earliest over rules and post_check's success_conditions; none without time conditions", async () => {
    const check = 'post_check: {success_conditions: ["current-datetime>=2026-03-18T13:00"]}';
    const two = rule('["label=x"]', check) + rule('["current-datetime>=2026-03-19T00:00"]');
    expect(await wakeUp(two)).toBe("2026-03-18T13:00:00.000Z");
    expect(await wakeUp(rule('["label=x", "#approved-reviews-by>=1"]'))).toBeNull();
  });
});
