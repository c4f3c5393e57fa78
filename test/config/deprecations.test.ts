/**
 * Deprecated keys and attributes (docs/configuration.md "Deprecations", docs/domain.md §1.7):
 * each use is reported once, with its path and deadline, and the file still loads.
 */
import { describe, expect, it } from "vitest";
import {
  DEPRECATED_ATTRIBUTES,
  DEPRECATED_KEYS,
  loadConfiguration,
  UNDATED_DEADLINE,
} from "../../services/config/index.js";

function yaml(...lines: string[]): string {
  return `${lines.join("\n")}\n`;
}

const EVERYTHING = yaml(
  "defaults:",
  "  queue_rule:",
  '    commit_message_template: "{{ title }}"',
  "  actions:",
  "    rebase: {autosquash: true}",
  "queue_rules:",
  "  - name: default",
  "    conditions: [check-success=ci]",
  "    routing_conditions: [label=queue]",
  "    autoqueue: true",
  "    speculative_checks: 2",
  "    allow_inplace_checks: true",
  "    queue_branch_merge_method: fast-forward",
  "    autosquash: false",
  "    allow_checks_interruption: true",
  "    disallow_checks_interruption_from_queues: []",
  "    priority_rules:",
  "      - name: mornings",
  '        conditions: ["current-time>=09:00"]',
  "partition_rules:",
  "  - name: all",
  "pull_request_rules:",
  "  - name: everything",
  "    conditions:",
  "      - status-success=ci",
  "      - or: [status-failure=ci, status-neutral=ci]",
  "      - not: check-success-or-neutral=lint",
  "      - -mergify-configuration-changed",
  "      - current-day>=1",
  "      - current-month>=1",
  "      - current-year>=2020",
  "      - current-day-of-week>=1",
  "      - current-timestamp>=2020-01-01T00:00",
  "    actions:",
  "      queue:",
  "        name: default",
  "        merge_method: squash",
  "        method: rebase",
  "        merge_bot_account: bot",
  "        update_method: merge",
  "        update_bot_account: bot",
  '        commit_message_template: "{{ title }}"',
  "        priority: high",
  "        require_branch_protection: true",
  "        allow_merging_configuration_change: false",
  "        autosquash: true",
  '      merge: {commit_message_template: "{{ title }}"}',
  "      github_actions: {workflow: {dispatch: [{workflow: ci.yml}]}}",
  "      post_check: {}",
  "      delete_head_branch: {}",
  "merge_protections_settings:",
  "  auto_merge: true",
);

const EXPECTED: [string, string][] = [
  ["defaults.queue_rule.commit_message_template", "2026-09-30"],
  ["defaults.actions.rebase.autosquash", UNDATED_DEADLINE],
  ["queue_rules.0.conditions", "2026-07-31"],
  ["queue_rules.0.routing_conditions", "2026-07-31"],
  ["queue_rules.0.autoqueue", "2026-07-16"],
  ["queue_rules.0.speculative_checks", UNDATED_DEADLINE],
  ["queue_rules.0.allow_inplace_checks", UNDATED_DEADLINE],
  ["queue_rules.0.queue_branch_merge_method", UNDATED_DEADLINE],
  ["queue_rules.0.autosquash", UNDATED_DEADLINE],
  ["queue_rules.0.allow_checks_interruption", "2024-12-11"],
  ["queue_rules.0.disallow_checks_interruption_from_queues", "2024-12-11"],
  ["queue_rules.0.priority_rules", "2024-11-26"],
  ["queue_rules.0.priority_rules.0.conditions.0", "2023-02-11"],
  ["partition_rules", "2025-10-31"],
  ["pull_request_rules.0.conditions.0", UNDATED_DEADLINE],
  ["pull_request_rules.0.conditions.1.or.0", UNDATED_DEADLINE],
  ["pull_request_rules.0.conditions.1.or.1", UNDATED_DEADLINE],
  ["pull_request_rules.0.conditions.2.not", UNDATED_DEADLINE],
  ["pull_request_rules.0.conditions.3", UNDATED_DEADLINE],
  ["pull_request_rules.0.conditions.4", "2023-02-11"],
  ["pull_request_rules.0.conditions.5", "2023-02-11"],
  ["pull_request_rules.0.conditions.6", "2023-02-11"],
  ["pull_request_rules.0.conditions.7", "2023-02-11"],
  ["pull_request_rules.0.conditions.8", "2023-02-11"],
  ["pull_request_rules.0.actions.queue.merge_method", "2025-01-31"],
  ["pull_request_rules.0.actions.queue.method", "2025-01-31"],
  ["pull_request_rules.0.actions.queue.merge_bot_account", "2025-01-31"],
  ["pull_request_rules.0.actions.queue.update_method", "2025-01-31"],
  ["pull_request_rules.0.actions.queue.update_bot_account", "2025-01-31"],
  ["pull_request_rules.0.actions.queue.commit_message_template", "2025-01-31"],
  ["pull_request_rules.0.actions.queue.priority", "2025-01-31"],
  ["pull_request_rules.0.actions.queue.require_branch_protection", "2025-01-31"],
  ["pull_request_rules.0.actions.queue.allow_merging_configuration_change", "2025-01-31"],
  ["pull_request_rules.0.actions.queue.autosquash", "2025-01-31"],
  ["pull_request_rules.0.actions.merge.commit_message_template", "2026-09-30"],
  ["pull_request_rules.0.actions.github_actions", "2027-03-31"],
  ["pull_request_rules.0.actions.post_check", UNDATED_DEADLINE],
  ["pull_request_rules.0.actions.delete_head_branch", UNDATED_DEADLINE],
  ["merge_protections_settings.auto_merge", UNDATED_DEADLINE],
];

describe("deprecations", () => {
  it("reports every deprecated key and attribute once, with its deadline, and still loads the file", async () => {
    const r = await loadConfiguration(EVERYTHING);
    expect(r.ok ? [] : r.errors).toEqual([]);
    expect(r.deprecations.map((d) => [d.path.join("."), d.deadline])).toEqual(EXPECTED);
  });

  it("covers every entry of the deprecation tables", async () => {
    const r = await loadConfiguration(EVERYTHING);
    const keys = new Set(r.deprecations.map((d) => String(d.path[d.path.length - 1])));
    for (const entry of DEPRECATED_KEYS) expect([entry.key, keys.has(entry.key)]).toEqual([entry.key, true]);
    const messages = r.deprecations.map((d) => d.message).join("\n");
    for (const entry of DEPRECATED_ATTRIBUTES) expect(messages).toContain(`"${entry.attribute}"`);
  });

  it("says what to use instead and until when", async () => {
    const r = await loadConfiguration(
      yaml(
        "queue_rules:",
        "  - name: default",
        "    conditions: [check-success=ci]",
        "pull_request_rules:",
        "  - {name: x, conditions: [status-success=ci], actions: {refresh: {}}}",
      ),
    );
    expect(r.deprecations).toEqual([
      {
        message: '"conditions" is deprecated and accepted until 2026-07-31: use merge_conditions instead',
        deadline: "2026-07-31",
        path: ["queue_rules", 0, "conditions"],
      },
      {
        message: `the condition attribute "status-success" is deprecated and accepted until ${UNDATED_DEADLINE}: use check-success instead`,
        deadline: UNDATED_DEADLINE,
        path: ["pull_request_rules", 0, "conditions", 0],
      },
    ]);
  });

  it("reports a deprecated condition stored in shared where it is used, once per use", async () => {
    const r = await loadConfiguration(
      yaml(
        "shared:",
        "  ci: &ci [status-success=ci]",
        "queue_rules:",
        "  - {name: a, merge_conditions: *ci}",
        "  - {name: b, merge_conditions: *ci}",
      ),
    );
    expect(r.deprecations.map((d) => d.path.join("."))).toEqual([
      "queue_rules.0.merge_conditions.0",
      "queue_rules.1.merge_conditions.0",
    ]);
  });

  it("reports nothing for a file written in the current format", async () => {
    const r = await loadConfiguration(
      yaml(
        "queue_rules:",
        "  - name: default",
        "    queue_conditions: ['#approved-reviews-by>=1']",
        "    merge_conditions: [check-success=ci]",
        "    merge_method: squash",
        "    commit_message_format: {title: pr-title, body: pr-body}",
        "merge_queue: {max_parallel_checks: 2}",
        "priority_rules: [{name: hotfix, conditions: [label=hotfix], priority: high, allow_checks_interruption: true}]",
        "pull_request_rules:",
        "  - name: queue",
        "    conditions: [label=ready, schedule=Mon-Fri 09:00-17:00]",
        "    actions: {queue: {name: default}, label: {remove: [ready]}}",
        "merge_protections_settings: {auto_merge_conditions: [label=auto]}",
      ),
    );
    expect(r.ok).toBe(true);
    expect(r.deprecations).toEqual([]);
  });
});
