/**
 * `extends` (docs/configuration.md "extends", docs/domain.md §1.1): one level, another
 * repository of the same owner, merged key-wise or by rule name; the other repository's text
 * comes from the loader the caller passes.
 */
import { describe, expect, it } from "vitest";
import { loadConfiguration, type LoadOptions } from "../../services/config/index.js";

function yaml(...lines: string[]): string {
  return `${lines.join("\n")}\n`;
}

const ORGANIZATION = yaml(
  "defaults:",
  "  actions:",
  "    comment: {bot_account: org-bot}",
  "  queue_rule: {merge_method: squash, batch_size: 4}",
  "merge_queue: {max_parallel_checks: 3, mode: parallel}",
  "queue_rules:",
  "  - {name: default, merge_conditions: [check-success=org-ci]}",
  "  - {name: hotfix, queue_conditions: [label=hotfix]}",
  "priority_rules:",
  "  - {name: urgent, conditions: [label=urgent], priority: high}",
  "pull_request_rules:",
  "  - {name: welcome, conditions: [], actions: {comment: {message: hi}}}",
  "  - {name: cleanup, conditions: [merged], actions: {label: {remove: [ready]}}}",
  "commands_restrictions:",
  "  queue: {conditions: [sender-permission>=maintain]}",
  "shared:",
  "  org: &org [label=org]",
);

function repositories(texts: Record<string, string | null>): LoadOptions & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    repositoryName: "widgets",
    loadExtended: async (name) => {
      asked.push(name);
      if (!(name in texts)) throw new Error(`no repository ${name}`);
      return texts[name];
    },
  };
}

describe("extends", () => {
  it("merges sections key-wise and rules by name, local values winning", async () => {
    const options = repositories({ ".github": ORGANIZATION });
    const r = await loadConfiguration(
      yaml(
        "extends: .github",
        "defaults:",
        "  queue_rule: {batch_size: 2}",
        "merge_queue: {mode: serial}",
        "queue_rules:",
        "  - {name: hotfix, queue_conditions: [label=urgent-fix]}",
        "  - {name: local}",
        "pull_request_rules:",
        "  - {name: cleanup, conditions: [closed], actions: {label: {remove: [wip]}}}",
      ),
      options,
    );
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const c = r.config;
    expect(options.asked).toEqual([".github"]);
    expect(c.extends).toBe(".github");
    expect(c.merge_queue).toMatchObject({ max_parallel_checks: 3, mode: "serial" });
    expect(
      c.queue_rules.map((q) => [
        q.name,
        q.merge_method,
        q.batch_size.max,
        q.queue_conditions.map((x) => x.kind === "leaf" && x.text),
      ]),
    ).toEqual([
      ["default", "squash", 2, []],
      ["hotfix", "squash", 2, ["label=urgent-fix"]],
      ["local", "squash", 2, []],
    ]);
    expect(c.priority_rules.map((p) => p.name)).toEqual(["urgent"]);
    expect(c.pull_request_rules.map((p) => [p.name, Object.keys(p.actions)])).toEqual([
      ["welcome", ["comment"]],
      ["cleanup", ["label"]],
    ]);
    expect(c.pull_request_rules[0].actions.comment).toEqual({ message: "hi", bot_account: "org-bot" });
    expect(c.pull_request_rules[1].actions.label).toMatchObject({ remove: ["wip"] });
    expect(c.commands_restrictions.queue.conditions[0]).toMatchObject({ text: "sender-permission>=maintain" });
    expect(c.present_sections).toEqual(["extends", "defaults", "merge_queue", "queue_rules", "pull_request_rules"]);
  });

  it("does not share anchors across files", async () => {
    const r = await loadConfiguration(
      yaml("extends: .github", "queue_rules: [{name: a, merge_conditions: *org}]"),
      repositories({ ".github": ORGANIZATION }),
    );
    expect(r.ok ? [] : r.errors).toEqual([
      {
        path: [],
        line: 2,
        column: 43,
        message: "unknown anchor *org: an alias must refer to an anchor (&org) set earlier in the same file",
      },
    ]);
  });

  const refusals: [string, string, Record<string, string | null>, string][] = [
    ["its own repository", "extends: widgets", {}, "a configuration cannot extend its own repository"],
    [
      "an owner/name",
      "extends: acme/.github",
      {},
      'expected the name of a repository of the same owner, without "owner/", got "acme/.github"',
    ],
    [
      "a repository without configuration",
      "extends: .github",
      { ".github": null },
      'repository ".github" has no configuration file to extend',
    ],
    [
      "a repository that cannot be read",
      "extends: missing",
      {},
      'could not read the configuration of repository "missing": no repository missing',
    ],
    [
      "two levels",
      "extends: .github",
      { ".github": "extends: base\n" },
      'extends is limited to one level: repository ".github" itself extends "base"',
    ],
    [
      "an invalid extended configuration",
      "extends: .github",
      { ".github": "queue_rules:\n  - name: default\n    batch_size: 0\n" },
      'the configuration of repository ".github" is invalid: expected an integer from 1 to 128, or {min, max} with integers from 1 to 128, got the number 0 @ queue_rules → item 0 → batch_size (line 3, column 17)',
    ],
  ];
  it.each(refusals)("refuses %s", async (_, text, texts, message) => {
    const r = await loadConfiguration(`${text}\n`, repositories(texts));
    expect(r.ok ? [] : r.errors).toEqual([{ path: ["extends"], line: 1, column: 10, message }]);
  });

  it("refuses extends when no loader is given", async () => {
    const r = await loadConfiguration("extends: .github\n");
    expect(r.ok ? [] : r.errors.map((e) => e.message)).toEqual([
      'the configuration extends repository ".github", but other repositories cannot be read here',
    ]);
  });
});
