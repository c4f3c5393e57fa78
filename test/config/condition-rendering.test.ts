/**
 * Renderings of evaluated conditions (docs/conditions.md "Rendering", "API form"): the Markdown
 * checklist of docs/domain.md §2.6, the batch checklist, the queue.proto / events.proto JSON,
 * and the injected `Depends-On:` conditions of §2.5.
 */
import { describe, expect, it } from "vitest";
import {
  branchProtectionConditions,
  conditionEvaluationEventJson,
  conditionsEvaluationJson,
  dependsOnConditions,
  DOCS_BASE_URL,
  evaluateConditions,
  parseConditionList,
  parseDependsOn,
  renderBatchChecklist,
  renderChecklist,
  type Condition,
} from "../../services/config/index.js";
import { checkRun, contextFor, labels, NOON, pullRequest } from "./builders.js";

function list(...items: unknown[]): Condition[] {
  const parsed = parseConditionList(items);
  if (parsed.conditions === null || parsed.conditions === true) throw new Error(JSON.stringify(parsed.issues));
  return parsed.conditions;
}

const ctx = contextFor(pullRequest({ labels: labels("ui"), checks: [checkRun("ci", "pending")] }));

describe("Markdown checklist", () => {
  it("prints one line per node, two spaces per level, ticks only true results", () => {
    const tree = evaluateConditions(
      list("base=main", { or: ["label=bug", { and: ["label=ui", "-draft"] }] }, "check-success=ci", {
        not: "conflict",
      }),
      ctx,
    );
    expect(renderChecklist(tree)).toBe(
      [
        "- [X] `base = main`",
        "- [X] any of:",
        "  - [ ] `label = bug`",
        "  - [X] all of:",
        "    - [X] `label = ui`",
        "    - [X] `-draft`",
        "- [ ] `check-success = ci`",
        "- [X] not:",
        "  - [ ] `conflict`",
      ].join("\n"),
    );
  });

  it("adds descriptions in brackets and evaluation errors after a warning sign", () => {
    const conditions: Condition[] = [
      ...list("author=@acme/ghosts"),
      ...dependsOnConditions("Depends-On: #12", "acme/widgets"),
    ];
    expect(renderChecklist(evaluateConditions(conditions, ctx))).toBe(
      [
        "- [ ] `author = @acme/ghosts` ⚠️ unknown team @acme/ghosts: its members are not known",
        "- [ ] `depends-on = #12` [⛓️ depends on]",
      ].join("\n"),
    );
  });

  it("prints an empty condition list as nothing", () => {
    expect(renderChecklist(evaluateConditions([], ctx))).toBe("");
  });

  it("lists pull request attributes per pull request in a batch, shared ones once", () => {
    const conditions = list("label=ui", "check-success=ci", "base=main");
    const first = evaluateConditions(
      conditions,
      contextFor(pullRequest({ number: 1, labels: labels("ui"), checks: [checkRun("ci", "success")] })),
    );
    const second = evaluateConditions(
      conditions,
      contextFor(pullRequest({ number: 2, labels: [], checks: [checkRun("ci", "success")] })),
    );
    expect(
      renderBatchChecklist([
        { pullRequest: 1, tree: first },
        { pullRequest: 2, tree: second },
      ]),
    ).toBe(
      ["- `label = ui`", "  - [X] #1", "  - [ ] #2", "- [X] `check-success = ci`", "- [X] `base = main`"].join("\n"),
    );
  });
});

describe("API JSON", () => {
  it("gives queue.proto ConditionsEvaluation with per pull request evaluations", () => {
    const tree = evaluateConditions(list("check-success=ci", "schedule=Mon-Fri 09:00-17:00"), ctx);
    const json = conditionsEvaluationJson(tree, 42);
    expect(json).toEqual({
      match: false,
      label: "all of",
      description: "",
      documentation_url: `${DOCS_BASE_URL}/conditions#groups`,
      schedule: null,
      evaluations: [
        {
          pull_request: 42,
          match: false,
          evaluation_error: null,
          related_checks: ["ci"],
          next_evaluation_at: "2026-03-18T17:01:00.000Z",
        },
      ],
      subconditions: [
        {
          match: false,
          label: "check-success = ci",
          description: "",
          documentation_url: `${DOCS_BASE_URL}/conditions#check-success`,
          schedule: null,
          subconditions: [],
          evaluations: [
            {
              pull_request: 42,
              match: false,
              evaluation_error: null,
              related_checks: ["ci"],
              next_evaluation_at: null,
            },
          ],
        },
        {
          match: true,
          label: "schedule = Mon-Fri 09:00-17:00",
          description: "",
          documentation_url: `${DOCS_BASE_URL}/conditions#schedule`,
          schedule: {
            timezone: "UTC",
            days: {
              monday: { times: [{ start_at: { hour: 9, minute: 0 }, end_at: { hour: 17, minute: 0 } }] },
              tuesday: { times: [{ start_at: { hour: 9, minute: 0 }, end_at: { hour: 17, minute: 0 } }] },
              wednesday: { times: [{ start_at: { hour: 9, minute: 0 }, end_at: { hour: 17, minute: 0 } }] },
              thursday: { times: [{ start_at: { hour: 9, minute: 0 }, end_at: { hour: 17, minute: 0 } }] },
              friday: { times: [{ start_at: { hour: 9, minute: 0 }, end_at: { hour: 17, minute: 0 } }] },
              saturday: { times: [] },
              sunday: { times: [] },
            },
          },
          subconditions: [],
          evaluations: [
            {
              pull_request: 42,
              match: true,
              evaluation_error: null,
              related_checks: [],
              next_evaluation_at: "2026-03-18T17:01:00.000Z",
            },
          ],
        },
      ],
    });
  });

  it("merges the trees of a batch into one evaluation item per pull request", () => {
    const conditions = list("label=ui");
    const json = conditionsEvaluationJson([
      { pullRequest: 1, tree: evaluateConditions(conditions, contextFor(pullRequest({ labels: labels("ui") }))) },
      { pullRequest: 2, tree: evaluateConditions(conditions, contextFor(pullRequest({ labels: [] }))) },
    ]);
    expect(json.match).toBe(false);
    expect(json.subconditions[0].evaluations.map((e) => [e.pull_request, e.match])).toEqual([
      [1, true],
      [2, false],
    ]);
  });

  it("gives events.proto ConditionEvaluation with attribute and operator", () => {
    const json = conditionEvaluationEventJson(evaluateConditions(list("-label=wip"), ctx), 7);
    expect(json.subconditions[0]).toMatchObject({
      match: true,
      label: "-label = wip",
      is_label_user_input: true,
      attribute_name: "label",
      operator: "=",
      description: null,
    });
    expect(json).toMatchObject({ label: "all of", is_label_user_input: false, attribute_name: null, operator: null });
  });

  it("reports a pending result as not matching", () => {
    const json = conditionsEvaluationJson(evaluateConditions(list("check-success=ci"), ctx), 1);
    expect(json.match).toBe(false);
    expect(json.evaluations[0].match).toBe(false);
  });
});

describe("Depends-On", () => {
  it("reads #N, owner/repo#N and pull request URLs, once each, ignoring comments and malformed lines", () => {
    const body = [
      "Stacked on other work.",
      "Depends-On: #12",
      "depends-on: acme/other#3",
      "Depends-On: https://forge.example/acme/lib/pull/9",
      "Depends-On: #12",
      "Depends-On: soon",
      "<!-- Depends-On: #99 -->",
    ].join("\n");
    expect(parseDependsOn(body)).toEqual([
      { repository: null, number: 12 },
      { repository: "acme/other", number: 3 },
      { repository: "acme/lib", number: 9 },
    ]);
  });

  it("injects depends-on leaves that are true once the dependency is merged", () => {
    const leaves = dependsOnConditions(
      "Depends-On: #12\nDepends-On: acme/widgets#13\nDepends-On: acme/other#3",
      "acme/widgets",
    );
    expect(leaves.map((l) => l.text)).toEqual(["depends-on=#12", "depends-on=#13", "depends-on=acme/other#3"]);
    const merged = contextFor(pullRequest(), {
      queue: { mergedDependencies: ["acme/widgets#12", "acme/other#3"] },
      now: NOON,
    });
    expect(evaluateConditions(leaves, merged).subconditions.map((s) => s.match)).toEqual([true, false, true]);
  });
});

describe("branch protection", () => {
  it("injects required checks, reviews and conversation resolution, described as branch protection", () => {
    const conditions = branchProtectionConditions({
      requiredChecks: ["ci", "lint = strict"],
      requiredApprovals: 2,
      requireConversationResolution: true,
    });
    const tree = evaluateConditions(
      conditions,
      contextFor(pullRequest({ checks: [checkRun("ci", "skipped"), checkRun("lint = strict", "success")] })),
    );
    expect(renderChecklist(tree)).toBe(
      [
        "- [X] any of: [🛡 GitHub branch protection]",
        "  - [ ] `check-success = ci` [🛡 GitHub branch protection]",
        "  - [ ] `check-neutral = ci` [🛡 GitHub branch protection]",
        "  - [X] `check-skipped = ci` [🛡 GitHub branch protection]",
        "- [X] any of: [🛡 GitHub branch protection]",
        "  - [X] `check-success = lint = strict` [🛡 GitHub branch protection]",
        "  - [ ] `check-neutral = lint = strict` [🛡 GitHub branch protection]",
        "  - [ ] `check-skipped = lint = strict` [🛡 GitHub branch protection]",
        "- [ ] `#approved-reviews-by >= 2` [🛡 GitHub branch protection]",
        "- [X] `#changes-requested-reviews-by = 0` [🛡 GitHub branch protection]",
        "- [X] `#review-threads-unresolved = 0` [🛡 GitHub branch protection]",
      ].join("\n"),
    );
  });

  it("describes the conditions as the forge says its rules come from (the local forge's CI file)", () => {
    const conditions = branchProtectionConditions({
      requiredChecks: ["ci"],
      requiredApprovals: 0,
      requireConversationResolution: false,
      description: "🛡 required by the local CI (.yardmaster/ci.yml)",
    });
    const tree = evaluateConditions(conditions, contextFor(pullRequest({ checks: [checkRun("ci", "success")] })));
    expect(renderChecklist(tree)).not.toContain("GitHub");
    expect(renderChecklist(tree).split("\n")[0]).toBe(
      "- [X] any of: [🛡 required by the local CI (.yardmaster/ci.yml)]",
    );
  });

  it("injects nothing for an unprotected branch", () => {
    expect(
      branchProtectionConditions({ requiredChecks: [], requiredApprovals: 0, requireConversationResolution: false }),
    ).toEqual([]);
  });
});
