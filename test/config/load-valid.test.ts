/**
 * Valid configurations and the effective configuration they give (docs/configuration.md "Keys and
 * defaults"): defaults filled in, durations in seconds, priorities as numbers, `defaults`
 * applied, legacy keys mapped, anchors and merge keys followed.
 */
import { describe, expect, it } from "vitest";
import { leafToString, loadConfiguration, type Condition, type Configuration } from "../../services/config/index.js";

function yaml(...lines: string[]): string {
  return `${lines.join("\n")}\n`;
}

async function load(text: string): Promise<Configuration> {
  const r = await loadConfiguration(text);
  if (!r.ok) throw new Error(`expected a valid configuration, got ${JSON.stringify(r.errors)}`);
  return r.config;
}

function texts(conditions: Condition[]): string[] {
  return conditions.map((c) => (c.kind === "leaf" ? leafToString(c) : `${c.kind}(${texts(c.conditions).join(", ")})`));
}

describe("defaults", () => {
  it("an empty file is an empty configuration with every default", async () => {
    const config = await load("");
    expect(config.queue_rules).toEqual([]);
    expect(config.pull_request_rules).toEqual([]);
    expect(config.merge_queue).toEqual({
      max_parallel_checks: 5,
      mode: "serial",
      reset_on_external_merge: "always",
      skip_intermediate_results: false,
      queued_label: "queued",
      checking_label: null,
      dequeued_label: "dequeued",
      status_comments: "all",
      queue_controls_comment: true,
    });
    expect(config.merge_protections_settings).toEqual({
      reporting_method: "check-runs",
      post_comment: true,
      auto_merge: false,
      auto_merge_conditions: null,
    });
    expect(Object.keys(config.commands_restrictions)).toEqual([
      "queue",
      "dequeue",
      "requeue",
      "backport",
      "copy",
      "rebase",
      "refresh",
      "squash",
      "update",
    ]);
    expect(texts(config.commands_restrictions.queue.conditions)).toEqual(["sender-permission >= write"]);
    expect(texts(config.commands_restrictions.rebase.conditions)).toEqual([
      "or(sender-permission >= write, sender = {{author}})",
    ]);
    expect(config.scopes).toBeNull();
    expect(config.present_sections).toEqual([]);
  });

  it("a queue rule with only a name gets every default", async () => {
    const config = await load(yaml("queue_rules:", "  - name: default"));
    expect(config.queue_rules).toEqual([
      {
        name: "default",
        queue_conditions: [],
        merge_conditions: [],
        branch_protection_injection_mode: "queue",
        batch_size: { min: 1, max: 1 },
        batch_max_wait_time: 30,
        checks_timeout: "auto",
        max_checks_retries: 0,
        draft_bot_account: null,
        merge_bot_account: null,
        update_bot_account: null,
        queue_branch_prefix: "yardmaster/merge-queue/",
        allow_queue_branch_edit: false,
        batch_max_failure_resolution_attempts: null,
        merge_method: null,
        update_method: null,
        // docs/self-tuning.md: no batch size, wait or parallelism set
        self_tuned: true,
        commit_message_template: null,
        commit_message_format: null,
        allow_inplace_checks: true,
        autosquash: false,
        priority: 0,
        queue_branch_merge_method: null,
        allow_checks_interruption: null,
        disallow_checks_interruption_from_queues: [],
        autoqueue: false,
      },
    ]);
    expect(config.present_sections).toEqual(["queue_rules"]);
  });

  it("turns durations into seconds, batch sizes into ranges, and ranks queue rules by file order", async () => {
    const config = await load(
      yaml(
        "queue_rules:",
        "  - name: hotfix",
        "    batch_max_wait_time: 2 min",
        "    checks_timeout: 1 hour 30 min",
        "    batch_size: 5",
        "  - name: default",
        "    batch_size: {min: 2, max: 8}",
        "    checks_timeout: null",
        "    batch_max_failure_resolution_attempts: 0",
        "    commit_message_format: {title: pr-title}",
      ),
    );
    const [hotfix, normal] = config.queue_rules;
    expect([hotfix.batch_max_wait_time, hotfix.checks_timeout, hotfix.batch_size, hotfix.priority]).toEqual([
      120,
      5400,
      { min: 5, max: 5 },
      1,
    ]);
    expect([
      normal.batch_size,
      normal.checks_timeout,
      normal.batch_max_failure_resolution_attempts,
      normal.priority,
    ]).toEqual([{ min: 2, max: 8 }, null, 0, 0]);
    expect(normal.commit_message_format).toEqual({ title: "pr-title", body: "inherit", trailers: [] });
  });

  it("turns priority aliases into numbers; a rule without priority is medium", async () => {
    const config = await load(
      yaml(
        "priority_rules:",
        "  - {name: urgent, conditions: [label=urgent], priority: high}",
        "  - {name: bots, conditions: ['author=dependabot[bot]'], priority: low, allow_checks_interruption: true}",
        "  - {name: exact, conditions: [label=p5000], priority: 5000}",
        "  - {name: plain, conditions: [label=plain]}",
      ),
    );
    expect(config.priority_rules.map((p) => [p.name, p.priority, p.allow_checks_interruption])).toEqual([
      ["urgent", 3000, false],
      ["bots", 1000, true],
      ["exact", 5000, false],
      ["plain", 2000, false],
    ]);
  });

  it("applies defaults.queue_rule under each queue rule; the rule's own value wins", async () => {
    const config = await load(
      yaml(
        "defaults:",
        "  queue_rule:",
        "    merge_method: squash",
        "    batch_size: 3",
        "    merge_conditions: [check-success=ci]",
        "queue_rules:",
        "  - name: default",
        "  - name: rebased",
        "    merge_method: rebase",
      ),
    );
    expect(
      config.queue_rules.map((q) => [q.name, q.merge_method, q.batch_size.max, texts(q.merge_conditions)]),
    ).toEqual([
      ["default", "squash", 3, ["check-success = ci"]],
      ["rebased", "rebase", 3, ["check-success = ci"]],
    ]);
  });

  it("fills action options: built-in defaults < defaults.actions < the rule", async () => {
    const config = await load(
      yaml(
        "defaults:",
        "  actions:",
        "    comment:",
        "      bot_account: helper-bot",
        "    merge:",
        "      method: squash",
        "pull_request_rules:",
        "  - name: greet",
        "    conditions: []",
        "    actions:",
        "      comment:",
        "        message: Hello {{author}}",
        "      merge:",
        "        method: rebase",
        "      label:",
        "      review:",
        "        type: COMMENT",
      ),
    );
    expect(config.pull_request_rules[0].actions).toEqual({
      comment: { message: "Hello {{author}}", bot_account: "helper-bot" },
      merge: {
        method: "rebase",
        merge_bot_account: null,
        commit_message_template: null,
        commit_message_format: null,
        allow_merging_configuration_change: false,
      },
      label: { add: [], remove: [], remove_all: false, toggle: [] },
      review: { type: "COMMENT", message: null, bot_account: null },
    });
  });

  it("suffixes duplicate pull request rule names and reads `true` as an empty condition list", async () => {
    const config = await load(
      yaml(
        "pull_request_rules:",
        "  - {name: size, conditions: true, actions: {label: {add: [small]}}}",
        "  - {name: size, conditions: ['#files>10'], actions: {label: {add: [large]}}}",
        "  - {name: other, conditions: [], actions: {refresh: {}}, disabled: {reason: paused}}",
      ),
    );
    expect(config.pull_request_rules.map((r) => [r.name, r.conditions.length, r.disabled])).toEqual([
      ["size #1", 0, null],
      ["size #2", 1, null],
      ["other", 0, { reason: "paused" }],
    ]);
  });
});

describe("sections", () => {
  it("reads merge_queue, scopes, merge protections and commands restrictions", async () => {
    const config = await load(
      yaml(
        "merge_queue:",
        "  max_parallel_checks: 3",
        "  mode: parallel",
        "  skip_intermediate_results: true",
        "  queued_label: null",
        "scopes:",
        "  source:",
        "    files:",
        "      frontend: {include: ['web/**']}",
        "      backend: {include: ['api/**'], exclude: ['api/docs/**']}",
        "  barrier_files: {include: ['.github/workflows/**']}",
        "  capacities: {frontend: 2}",
        "merge_protections:",
        "  - name: reviewed",
        "    if: [base=main]",
        "    success_conditions: ['#approved-reviews-by>=1']",
        "merge_protections_settings:",
        "  auto_merge_conditions: true",
        "commands_restrictions:",
        "  queue:",
        "    conditions: [sender-permission>=maintain]",
        "$schema: https://example.invalid/schema.json",
      ),
    );
    expect(config.merge_queue).toMatchObject({
      max_parallel_checks: 3,
      mode: "parallel",
      skip_intermediate_results: true,
      queued_label: null,
      dequeued_label: "dequeued",
    });
    expect(config.scopes).toEqual({
      source: {
        type: "files",
        scopes: {
          frontend: { include: ["web/**"], exclude: [] },
          backend: { include: ["api/**"], exclude: ["api/docs/**"] },
        },
      },
      barrier_files: { include: [".github/workflows/**"], exclude: [] },
      merge_queue_scope: "merge-queue",
      capacities: { frontend: 2 },
      default_capacity: null,
    });
    expect(
      config.merge_protections.map((m) => [m.name, m.description, texts(m.if), texts(m.success_conditions)]),
    ).toEqual([["reviewed", null, ["base = main"], ["#approved-reviews-by >= 1"]]]);
    expect(config.merge_protections_settings.auto_merge_conditions).toBe(true);
    expect(texts(config.commands_restrictions.queue.conditions)).toEqual(["sender-permission >= maintain"]);
    expect(texts(config.commands_restrictions.dequeue.conditions)).toEqual(["sender-permission >= write"]);
    expect(config.present_sections).toEqual([
      "merge_queue",
      "scopes",
      "merge_protections",
      "merge_protections_settings",
      "commands_restrictions",
    ]);
  });

  it("follows YAML anchors, aliases and merge keys, with shared as anchor storage", async () => {
    const config = await load(
      yaml(
        "shared:",
        "  ci: &ci",
        "    - check-success=build",
        "    - check-success=test",
        "  queue_defaults: &queue_defaults",
        "    merge_method: squash",
        "    batch_size: 2",
        "queue_rules:",
        "  - name: default",
        "    <<: *queue_defaults",
        "    merge_conditions: *ci",
        "pull_request_rules:",
        "  - name: queue",
        "    conditions:",
        "      - and: *ci",
        "    actions: {queue: {name: default}}",
      ),
    );
    expect([config.queue_rules[0].merge_method, config.queue_rules[0].batch_size.max]).toEqual(["squash", 2]);
    expect(texts(config.queue_rules[0].merge_conditions)).toEqual(["check-success = build", "check-success = test"]);
    expect(texts(config.pull_request_rules[0].conditions)).toEqual([
      "and(check-success = build, check-success = test)",
    ]);
    expect(config.present_sections).toEqual(["shared", "queue_rules", "pull_request_rules"]);
  });
});

describe("legacy keys", () => {
  it("maps conditions, routing_conditions, speculative_checks and queue-level priority rules", async () => {
    const config = await load(
      yaml(
        "queue_rules:",
        "  - name: urgent",
        "    routing_conditions: [label=urgent]",
        "    conditions: [check-success=ci]",
        "    speculative_checks: 3",
        "    allow_checks_interruption: false",
        "    priority_rules:",
        "      - name: security",
        "        conditions: [label=security]",
        "        priority: high",
        "  - name: default",
        "    speculative_checks: 2",
        "priority_rules:",
        "  - {name: docs, conditions: ['files~=^docs/'], priority: low}",
      ),
    );
    const urgent = config.queue_rules[0];
    expect([texts(urgent.queue_conditions), texts(urgent.merge_conditions), urgent.allow_checks_interruption]).toEqual([
      ["label = urgent"],
      ["check-success = ci"],
      false,
    ]);
    expect(config.merge_queue.max_parallel_checks).toBe(3);
    expect(
      config.priority_rules.map((p) => [p.name, texts(p.conditions), p.priority, p.allow_checks_interruption]),
    ).toEqual([
      ["docs", ["files ~= ^docs/"], 1000, false],
      ["security", ["queue-name = urgent", "label = security"], 3000, false],
    ]);
  });

  it("an explicit max_parallel_checks wins over speculative_checks", async () => {
    const config = await load(
      yaml("merge_queue: {max_parallel_checks: 1}", "queue_rules: [{name: q, speculative_checks: 4}]"),
    );
    expect(config.merge_queue.max_parallel_checks).toBe(1);
  });

  it("accepts fast-forward in serial mode with speculative checks and batches (fast-forward is serial-only: merge_queue.mode)", async () => {
    const config = await load(
      yaml(
        "merge_queue: {max_parallel_checks: 5, mode: serial}",
        "queue_rules:",
        "  - {name: ff, merge_method: fast-forward, batch_size: 7}",
        "  - {name: legacy, queue_branch_merge_method: fast-forward, batch_size: {min: 2, max: 4}}",
      ),
    );
    expect(config.queue_rules.map((q) => [q.name, q.merge_method, q.batch_size.max])).toEqual([
      ["ff", "fast-forward", 7],
      ["legacy", "fast-forward", 4],
    ]);
    expect(config.merge_queue).toMatchObject({ max_parallel_checks: 5, mode: "serial" });
  });

  it("maps queue_branch_merge_method to merge_method fast-forward, the queue action's method to merge_method, autoqueue to auto-merge", async () => {
    const config = await load(
      yaml(
        "queue_rules:",
        "  - name: ff",
        "    queue_branch_merge_method: fast-forward",
        "    autoqueue: true",
        "pull_request_rules:",
        "  - name: q",
        "    conditions: []",
        "    actions:",
        "      queue:",
        "        name: ff",
        "        method: rebase",
        "        priority: high",
      ),
    );
    expect([config.queue_rules[0].merge_method, config.queue_rules[0].queue_branch_merge_method]).toEqual([
      "fast-forward",
      "fast-forward",
    ]);
    expect(config.pull_request_rules[0].actions.queue).toEqual({ name: "ff", merge_method: "rebase", priority: 3000 });
    expect(config.merge_protections_settings.auto_merge_conditions).toBe(true);
  });
});
