/**
 * The merge protections' verdict on a pull request (services/config/protections/,
 * docs/merge-protections.md): custom rules (`if` / `success_conditions`), the built-ins
 * (Depends-On, Merge-After, Configuration changed, scheduled freezes), the conclusion, the check's
 * title and summary, and when the clock alone changes the verdict. NOON is Wednesday 2026-03-18
 * 12:00 UTC.
 */
import { describe, expect, it } from "vitest";
import {
  compileFreeze,
  evaluateProtections,
  loadConfiguration,
  parseMergeAfter,
  type DependencyFact,
  type ProtectionsInput,
} from "../../services/config/index.js";
import { checkRun, labels, NOON, pullRequest } from "./builders.js";

async function protections(yaml: string): Promise<ProtectionsInput["config"]> {
  const loaded = await loadConfiguration(yaml);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  return loaded.config;
}

const AUTH = `merge_protections:
  - name: Auth security review
    description: Changes to auth/ need a security review
    if: ["files~=^auth/"]
    success_conditions: [label=security-reviewed]
  - name: Conventional title
    if: [base=main]
    success_conditions: ["title~=^(feat|fix):"]
`;

function input(over: Partial<ProtectionsInput> & Pick<ProtectionsInput, "config">): ProtectionsInput {
  return {
    pr: pullRequest(),
    now: NOON,
    dependencies: [],
    configurationChange: null,
    freezes: [],
    mergeQueueEnabled: true,
    ...over,
  };
}

describe("custom merge protection rules", () => {
  it("apply when `if` holds and succeed when `success_conditions` hold; others are named as not applying", async () => {
    const config = await protections(AUTH);
    const pr = pullRequest({ title: "feat: widgets", files: ["src/a.ts"] });
    const v = evaluateProtections(input({ config, pr }));
    expect(v.conclusion).toBe("success");
    expect(v.rules.map((r) => [r.name, r.state])).toEqual([["Conventional title", "success"]]);
    expect(v.inactive).toEqual(["Auth security review"]);
    expect(v.title).toBe("The merge protection is satisfied");
    expect(v.summary).toContain("### 🟢 Conventional title");
    expect(v.summary).toContain("- [X] `title ~= ^(feat|fix):`");
    expect(v.summary).toContain("Not applying to this pull request: `Auth security review`.");
  });

  it("fail when an active rule's conditions are false, naming the rule, its description and conditions", async () => {
    const config = await protections(AUTH);
    const pr = pullRequest({ title: "feat: login", files: ["auth/login.ts"] });
    const v = evaluateProtections(input({ config, pr }));
    expect(v.conclusion).toBe("failure");
    expect(v.title).toBe("1 merge protection fails");
    expect(v.summary.indexOf("### 🔴 Auth security review")).toBeLessThan(v.summary.indexOf("### 🟢"));
    expect(v.summary).toContain("Changes to auth/ need a security review");
    expect(v.summary).toContain("- [ ] `label = security-reviewed`");
    const reviewed = pullRequest({
      title: "feat: login",
      files: ["auth/login.ts"],
      labels: labels("security-reviewed"),
    });
    expect(evaluateProtections(input({ config, pr: reviewed })).conclusion).toBe("success");
  });

  it("are pending while a check they read runs, and while an `if` reading a check is not known yet", async () => {
    const config = await protections(
      "merge_protections:\n  - name: CI\n    if: [check-success=lint]\n    success_conditions: [check-success=test]\n",
    );
    const running = pullRequest({ checks: [checkRun("lint", "success"), checkRun("test", "pending")] });
    expect(evaluateProtections(input({ config, pr: running })).conclusion).toBe("pending");
    const unknownIf = pullRequest({ checks: [checkRun("lint", "pending"), checkRun("test", "success")] });
    const v = evaluateProtections(input({ config, pr: unknownIf }));
    expect(v.conclusion).toBe("pending");
    expect(v.summary).toContain("whether it applies is not known yet");
    const failedIf = pullRequest({ checks: [checkRun("lint", "failure"), checkRun("test", "failure")] });
    expect(evaluateProtections(input({ config, pr: failedIf })).rules).toEqual([]);
  });

  it("are pending outside a schedule window, and say when the clock changes that", async () => {
    const config = await protections(
      "merge_protections:\n  - name: Office hours\n    if: []\n    success_conditions: ['schedule=Mon-Fri 13:00-17:00[UTC]']\n",
    );
    const v = evaluateProtections(input({ config }));
    expect(v.conclusion).toBe("pending");
    expect(v.nextChangeAt?.toISOString()).toBe("2026-03-18T13:00:00.000Z");
    const open = evaluateProtections(input({ config, now: new Date("2026-03-18T14:00:00Z") }));
    expect(open.conclusion).toBe("success");
    expect(open.nextChangeAt?.toISOString()).toBe("2026-03-18T17:01:00.000Z");
  });

  it("with no rule at all, succeed with nothing to apply", async () => {
    const v = evaluateProtections(input({ config: { merge_protections: [] } }));
    expect([v.conclusion, v.title, v.summary]).toEqual([
      "success",
      "No merge protection applies",
      "No merge protection applies to this pull request.",
    ]);
  });
});

describe("built-in merge protections", () => {
  const none = { merge_protections: [] };

  it("Depends-On: pending while a named pull request is open, success once all are merged, failure otherwise", () => {
    const deps = (...states: DependencyFact["state"][]): DependencyFact[] =>
      states.map((state, i) => ({ ref: `#${i + 1}`, state, title: `Change ${i + 1}` }));
    const pending = evaluateProtections(input({ config: none, dependencies: deps("merged", "open") }));
    expect(pending.conclusion).toBe("pending");
    expect(pending.title).toBe("Waiting for 1 merge protection");
    expect(pending.summary).toContain("### 🟠 Depends-On");
    expect(pending.summary).toContain("- [X] #1 Change 1: merged");
    expect(pending.summary).toContain("- [ ] #2 Change 2: not merged yet");
    expect(evaluateProtections(input({ config: none, dependencies: deps("merged", "merged") })).conclusion).toBe(
      "success",
    );
    for (const bad of ["closed", "unknown", "foreign"] as const)
      expect(evaluateProtections(input({ config: none, dependencies: deps("open", bad) })).conclusion).toBe("failure");
  });

  it("Merge-After: pending until the instant (which the clock releases), failure when it is not a timestamp", () => {
    const body = (line: string) => pullRequest({ body: `Ship it.\n\n${line}\n` });
    const later = evaluateProtections(input({ config: none, pr: body("Merge-After: 2026-03-18T15:30:00Z") }));
    expect(later.conclusion).toBe("pending");
    expect(later.nextChangeAt?.toISOString()).toBe("2026-03-18T15:30:00.000Z");
    expect(later.summary).toContain("- [ ] `Merge-After: 2026-03-18T15:30:00Z` (2026-03-18T15:30:00.000Z)");
    const zoned = evaluateProtections(input({ config: none, pr: body("merge-after: 2026-03-18T12:30[Europe/Paris]") }));
    expect(zoned.conclusion).toBe("success");
    const bad = evaluateProtections(input({ config: none, pr: body("Merge-After: tomorrow") }));
    expect(bad.conclusion).toBe("failure");
    expect(bad.summary).toMatch(/Merge-After: tomorrow` ⚠️ invalid timestamp/);
    expect(parseMergeAfter("<!-- Merge-After: 2030-01-01 -->")).toBeNull();
  });

  it("Configuration changed: success when the edited file loads, failure listing its errors", () => {
    const ok = evaluateProtections(
      input({ config: none, configurationChange: { path: ".yardmaster.yml", errors: [] } }),
    );
    expect(ok.conclusion).toBe("success");
    expect(ok.summary).toContain("- [X] `.yardmaster.yml` loads without error");
    const bad = evaluateProtections(
      input({
        config: none,
        configurationChange: { path: ".yardmaster.yml", errors: ["queue_rules.0.name: is required"] },
      }),
    );
    expect(bad.conclusion).toBe("failure");
    expect(bad.summary).toContain("### 🔴 Configuration changed");
    expect(bad.summary).toContain("  - queue_rules.0.name: is required");
  });

  it("a scheduled freeze: pending without the merge queue; shown without deciding with it", () => {
    const freeze = compileFreeze({
      id: "f1",
      reason: "release 2.0",
      start: new Date("2026-03-18T11:00:00Z"),
      end: new Date("2026-03-18T18:00:00Z"),
      matchingConditions: ["base=main"],
      excludeConditions: [],
    });
    const alone = evaluateProtections(input({ config: none, freezes: [freeze], mergeQueueEnabled: false }));
    expect(alone.conclusion).toBe("pending");
    expect(alone.summary).toContain('- [ ] "release 2.0" holds merges until 2026-03-18T18:00:00.000Z');
    expect(alone.nextChangeAt?.toISOString()).toBe("2026-03-18T18:00:00.000Z");
    const queued = evaluateProtections(input({ config: none, freezes: [freeze], mergeQueueEnabled: true }));
    expect(queued.conclusion).toBe("success");
    expect(queued.summary).toContain("### ❄️ Scheduled freeze");
  });
});
