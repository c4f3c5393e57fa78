/**
 * Every built-in default of the configuration, in one place (docs/domain.md §1.2-§1.6,
 * docs/configuration.md "Keys and defaults"). A value written in the file wins over
 * `defaults.queue_rule` / `defaults.actions`, which win over these.
 */
import { parseConditionList } from "../conditions/tree.js";
import type { Condition, MergeQueueConfig, QueueRuleConfig } from "../model.js";

/** Default queue rule keys (everything but name, conditions and the computed priority). */
export const QUEUE_RULE_DEFAULTS: Omit<QueueRuleConfig, "name" | "queue_conditions" | "merge_conditions" | "priority"> =
  {
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
    commit_message_template: null,
    commit_message_format: null,
    allow_inplace_checks: true,
    autosquash: false,
  };

/** Defaults of `merge_queue` (docs/domain.md §1.3). */
export const MERGE_QUEUE_DEFAULTS: MergeQueueConfig = {
  max_parallel_checks: 5,
  mode: "serial",
  reset_on_external_merge: "always",
  skip_intermediate_results: false,
  queued_label: "queued",
  checking_label: null,
  dequeued_label: "dequeued",
  status_comments: "all",
  queue_controls_comment: true,
};

/** Priority of a pull request no priority rule matches, and of a rule without `priority` (medium). */
export const DEFAULT_PRIORITY = 2000;
/** Defaults of a priority rule (docs/domain.md §1.4): medium, no interruption. */
export const PRIORITY_RULE_DEFAULTS = { priority: DEFAULT_PRIORITY, allow_checks_interruption: false };

/** Defaults of `scopes` keys (docs/domain.md §1.6). */
export const SCOPES_DEFAULTS = { merge_queue_scope: "merge-queue", default_capacity: null };

/** Defaults of `merge_protections_settings` (docs/domain.md §1.1). */
export const MERGE_PROTECTIONS_SETTINGS_DEFAULTS = {
  reporting_method: "check-runs" as const,
  post_comment: true,
  auto_merge: false,
  auto_merge_conditions: null,
};

function conditions(items: unknown[]): Condition[] {
  const parsed = parseConditionList(items);
  if (parsed.conditions === null || parsed.conditions === true)
    throw new Error("built-in default conditions do not parse");
  return parsed.conditions;
}

const WRITERS = ["sender-permission >= write"];
const WRITERS_OR_AUTHOR = [{ or: ["sender-permission >= write", "sender = {{author}}"] }];

/** Conditions the sender of each comment command must match unless commands_restrictions says otherwise. */
export function commandsRestrictionsDefaults(): Record<string, { conditions: Condition[] }> {
  return {
    queue: { conditions: conditions(WRITERS) },
    dequeue: { conditions: conditions(WRITERS) },
    requeue: { conditions: conditions(WRITERS) },
    backport: { conditions: conditions(WRITERS) },
    copy: { conditions: conditions(WRITERS) },
    rebase: { conditions: conditions(WRITERS_OR_AUTHOR) },
    refresh: { conditions: conditions(WRITERS_OR_AUTHOR) },
    squash: { conditions: conditions(WRITERS_OR_AUTHOR) },
    update: { conditions: conditions(WRITERS_OR_AUTHOR) },
  };
}

const copyDefaults = (kind: "backport" | "copy") => ({
  bot_account: null,
  branches: [],
  regexes: [],
  ignore_conflicts: true,
  assignees: [],
  labels: [],
  label_conflicts: "conflicts",
  title: `{{ title }} (${kind} #{{ number }})`,
  body: `{{ body }}<hr>This is an automatic ${kind} of pull request #{{number}} done by Yardmaster.\n`,
  report_mode: ["check"],
  merge_conflict_style: "merge",
});

/** Default options of every action (docs/domain.md §1.1, the format's action schemas). */
export const ACTION_DEFAULTS: Readonly<Record<string, Record<string, unknown>>> = {
  assign: { users: [], add_users: [], remove_users: [] },
  backport: copyDefaults("backport"),
  close: { message: "This pull request has been automatically closed by Yardmaster." },
  comment: { message: null, bot_account: null },
  copy: copyDefaults("copy"),
  delete_head_branch: { force: false },
  dequeue: {},
  dismiss_reviews: { approved: true, changes_requested: true, message: null, when: "synchronize" },
  edit: { bot_account: null, draft: null },
  github_actions: {},
  label: { add: [], remove: [], remove_all: false, toggle: [] },
  merge: {
    method: null,
    merge_bot_account: null,
    commit_message_template: null,
    commit_message_format: null,
    allow_merging_configuration_change: false,
  },
  post_check: {
    title:
      "'{{ check_rule_name }}'{% if check_status == 'success' %} succeeded{% elif check_status == 'failure' %} failed{% endif %}",
    summary: "{{ check_conditions }}",
    success_conditions: null,
    neutral_conditions: null,
  },
  queue: { name: null },
  rebase: { bot_account: null, autosquash: false },
  refresh: {},
  request_reviews: { bot_account: null, random_count: null, users: [], teams: [], users_from_teams: [] },
  review: { type: "APPROVE", message: null, bot_account: null },
  squash: { bot_account: null, commit_message: "all-commits" },
  update: { bot_account: null },
};
