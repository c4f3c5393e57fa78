/**
 * Simulator output (docs/domain.md §5, docs/api.md "Simulation", docs/configuration.md "API output
 * of queue rules"): the check-run title and summary for a pull request, the repository result, unused sections and the
 * API form of queue rules.
 */
import { describe, expect, it } from "vitest";
import {
  chooseQueueRule,
  DOCS_BASE_URL,
  loadConfiguration,
  priorityOf,
  queueRuleApiConfig,
  queueRulesApiConfiguration,
  simulatePullRequestSummary,
  simulateRepositorySummary,
  unusedSections,
  type Configuration,
} from "../../services/config/index.js";
import { contextFor, labels, pullRequest, review } from "./builders.js";

function yaml(...lines: string[]): string {
  return `${lines.join("\n")}\n`;
}

async function load(text: string): Promise<Configuration> {
  const r = await loadConfiguration(text);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.config;
}

const CONFIG = yaml(
  "queue_rules:",
  "  - name: hotfix",
  "    queue_conditions: [label=hotfix]",
  "  - name: default",
  "    queue_conditions: ['#approved-reviews-by>=1']",
  "    merge_conditions: [check-success=ci]",
  "priority_rules:",
  "  - {name: security, conditions: [label=security], priority: high}",
  "pull_request_rules:",
  "  - name: automatic merge",
  "    conditions: [base=main, label=ready]",
  "    actions: {queue: {}, label: {remove: [ready]}}",
  "  - name: stable backports",
  "    conditions: [base=stable]",
  "    actions: {backport: {branches: [stable]}}",
  "  - name: broken team rule",
  "    conditions: [author=@acme/ghosts]",
  "    actions: {comment: {message: hi}}",
  "  - name: delete merged",
  "    conditions: [merged]",
  "    actions: {delete_head_branch: {}}",
  "  - name: paused",
  "    disabled: {reason: migrating}",
  "    conditions: [base=main]",
  "    actions: {comment: {message: x}}",
);

const READY = pullRequest({ labels: labels("ready", "security"), reviews: [review("bob", "APPROVED")] });

describe("pull request simulation", () => {
  it("classifies rules and renders a checklist per rule, with the queue and priority it would get", async () => {
    const result = simulatePullRequestSummary(await load(CONFIG), contextFor(READY));
    expect(result.title).toBe("1 faulty rule and 2 rules match and 1 potential rule");
    expect(result.summary).toBe(
      [
        "### Rule: broken team rule (comment)",
        "- [ ] `author = @acme/ghosts` ⚠️ unknown team @acme/ghosts: its members are not known",
        "",
        "### Rule: automatic merge (queue)",
        "- [X] `base = main`",
        "- [X] `label = ready`",
        "- [X] `-closed` [📌 queue requirement]",
        "- [X] any of: [🔀 queue conditions]",
        "  - [ ] all of: [📌 queue conditions of queue `hotfix`]",
        "    - [ ] `label = hotfix`",
        "  - [X] all of: [📌 queue conditions of queue `default`]",
        "    - [X] `#approved-reviews-by >= 1`",
        "",
        "The pull request would enter the queue `default` with priority `high` (3000, priority rule `security`).",
        "",
        "### Rule: automatic merge (label)",
        "- [X] `base = main`",
        "- [X] `label = ready`",
        "",
        "### Rule: delete merged (delete_head_branch)",
        "- [ ] `merged`",
        "- [ ] `closed` [📌 delete_head_branch requirement]",
        "",
        "### Rule: ~~paused~~ (comment)",
        ":no_entry_sign: **Disabled: migrating**",
        "- [X] `base = main`",
        "",
        "<hr />",
        "<details>",
        "<summary>1 not applicable rule</summary>",
        "",
        "### Rule: stable backports (backport)",
        "- [ ] `base = stable`",
        "",
        "</details>",
        "",
      ].join("\n"),
    );
  });

  it("says when no queue would take the pull request, and the default priority otherwise", async () => {
    const config = await load(CONFIG);
    const unapproved = simulatePullRequestSummary(config, contextFor(pullRequest({ labels: labels("ready") })));
    expect(unapproved.title).toBe("1 faulty rule and 1 rule matches and 2 potential rules");
    expect(unapproved.summary).toContain(
      "No queue rule's queue conditions match yet: the pull request would not enter a queue.",
    );
    const hotfix = simulatePullRequestSummary(config, contextFor(pullRequest({ labels: labels("ready", "hotfix") })));
    expect(hotfix.summary).toContain(
      "The pull request would enter the queue `hotfix` with priority `medium` (2000, no priority rule matches).",
    );
  });

  it("titles a configuration without rules, one where nothing matches, and a configuration change", async () => {
    expect(simulatePullRequestSummary(await load("queue_rules: [{name: q}]\n"), contextFor()).title).toBe(
      "no rules configured, just listening for commands",
    );
    const none = simulatePullRequestSummary(
      await load(yaml("pull_request_rules:", "  - {name: r, conditions: [base=dev], actions: {refresh: {}}}")),
      contextFor(),
    );
    expect(none.title).toBe("no rules match, no planned actions");
    expect(none.summary).toBe(
      [
        "<hr />",
        "<details>",
        "<summary>1 not applicable rule</summary>",
        "",
        "### Rule: r (refresh)",
        "- [ ] `base = dev`",
        "",
        "</details>",
        "",
      ].join("\n"),
    );
    const changed = simulatePullRequestSummary(
      await load(yaml("pull_request_rules:", "  - {name: r, conditions: [base=main], actions: {refresh: {}}}")),
      contextFor(pullRequest({ files: [".yardmaster.yml"] })),
    );
    expect(changed.title).toBe("Configuration changed. This pull request must be merged manually — 1 rule matches");
  });

  it("says a repository configuration is valid, with an empty summary", () => {
    expect(simulateRepositorySummary()).toEqual({ title: "The configuration is valid", summary: "" });
  });
});

describe("queue choice", () => {
  it("takes the first queue rule whose queue conditions match, or the named one, and the first matching priority rule", async () => {
    const config = await load(CONFIG);
    const both = contextFor(
      pullRequest({ labels: labels("hotfix", "security"), reviews: [review("bob", "APPROVED")] }),
    );
    expect(chooseQueueRule(config, both)?.name).toBe("hotfix");
    expect(chooseQueueRule(config, both, "default")?.name).toBe("default");
    expect(chooseQueueRule(config, contextFor(pullRequest()))).toBeNull();
    expect(priorityOf(config, both, "default")).toEqual({ priority: 3000, rule: "security" });
    expect(priorityOf(config, contextFor(pullRequest()), "default")).toEqual({ priority: 2000, rule: null });
  });

  it("reads queue-name as the queue being entered when matching priority rules", async () => {
    const config = await load(
      yaml(
        "queue_rules: [{name: fast}, {name: slow}]",
        "priority_rules:",
        "  - {name: fast lane, conditions: [queue-name=fast], priority: 4000}",
      ),
    );
    expect(priorityOf(config, contextFor(), "fast")).toEqual({ priority: 4000, rule: "fast lane" });
    expect(priorityOf(config, contextFor(), "slow")).toEqual({ priority: 2000, rule: null });
  });
});

describe("unused sections", () => {
  it("lists present sections whose product is disabled, from one documentation base", () => {
    const present = [
      "extends",
      "queue_rules",
      "merge_queue",
      "pull_request_rules",
      "merge_protections_settings",
      "commands_restrictions",
    ];
    expect(unusedSections(present, ["workflow_automation", "ci_insights"])).toEqual([
      {
        section: "queue_rules",
        product: "merge_queue",
        product_name: "Merge Queue",
        product_url: `${DOCS_BASE_URL}/merge-queue/`,
      },
      {
        section: "merge_queue",
        product: "merge_queue",
        product_name: "Merge Queue",
        product_url: `${DOCS_BASE_URL}/merge-queue/`,
      },
      {
        section: "merge_protections_settings",
        product: "merge_protections",
        product_name: "Merge Protections",
        product_url: `${DOCS_BASE_URL}/merge-protections/`,
      },
    ]);
    expect(unusedSections(present, ["merge_queue", "workflow_automation", "merge_protections"])).toEqual([]);
    expect(unusedSections(["pull_request_rules"], [])).toEqual([
      {
        section: "pull_request_rules",
        product: "workflow_automation",
        product_name: "Workflow Automation",
        product_url: `${DOCS_BASE_URL}/workflow-automation/`,
      },
    ]);
  });
});

describe("queue rule API config", () => {
  it("gives the API's keys, seconds, unset strings as empty, and the rules in processing order", async () => {
    const config = await load(
      yaml(
        "queue_rules:",
        "  - name: urgent",
        "    batch_size: {min: 1, max: 4}",
        "    batch_max_wait_time: 2 min",
        "    checks_timeout: 1 hour",
        "    merge_method: merge",
        "    merge_bot_account: merger",
        "    queue_branch_merge_method: fast-forward",
        "  - name: default",
        "    checks_timeout: null",
        "    batch_max_failure_resolution_attempts: 0",
        '    commit_message_template: "{{ title }}"',
      ),
    );
    const api = queueRulesApiConfiguration(config);
    expect(api.map((r) => r.name)).toEqual(["urgent", "default"]);
    expect(api[0].config).toEqual({
      priority: 1,
      batch_size: 4,
      batch_size_min: 1,
      batch_size_max: 4,
      batch_max_wait_time: 120,
      max_parallel_checks: 5,
      allow_inplace_checks: true,
      allow_queue_branch_edit: false,
      checks_timeout: 3600,
      draft_bot_account: "",
      queue_branch_prefix: "yardmaster/merge-queue/",
      queue_branch_merge_method: "fast-forward",
      batch_max_failure_resolution_attempts: null,
      commit_message_template: "",
      merge_bot_account: "merger",
      merge_method: "fast-forward",
      update_bot_account: "",
      update_method: "",
    });
    expect(api[1].config).toMatchObject({
      priority: 0,
      checks_timeout: 0,
      batch_max_failure_resolution_attempts: 0,
      commit_message_template: "{{ title }}",
      merge_method: "",
    });
  });

  it("shows checks_timeout auto as the computed value when the engine has one, else 0", async () => {
    const [rule] = (await load("queue_rules: [{name: q}]\n")).queue_rules;
    expect(queueRuleApiConfig(rule).checks_timeout).toBe(0);
    expect(queueRuleApiConfig(rule, 900).checks_timeout).toBe(900);
  });

  it("shows risk_aware_batching only on a rule that turns it on", async () => {
    const [on, off] = (await load("queue_rules: [{name: a, risk_aware_batching: true}, {name: b}]\n")).queue_rules;
    expect(queueRuleApiConfig(on).risk_aware_batching).toBe(true);
    expect(queueRuleApiConfig(off)).not.toHaveProperty("risk_aware_batching");
  });
});
