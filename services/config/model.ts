/**
 * The effective configuration: what `.yardmaster.yml` means once parsed, validated, merged with
 * `extends` and filled with defaults. This is the contract between the configuration module (which
 * produces it), the queue engine and the simulator (which read it). Durations are in seconds;
 * priorities are numbers (low = 1000, medium = 2000, high = 3000). Reference of keys and defaults:
 * docs/domain.md §1 and docs/configuration.md.
 */

/** A duration in seconds. */
export type Seconds = number;

// ---------------------------------------------------------------------------------------------
// Conditions (docs/domain.md §2).

/** Comparison operators after alias resolution (`:`/`==` -> `=`, `≠` -> `!=`, `≥` -> `>=`, `≤` -> `<=`). */
export type Operator = "=" | "!=" | "~=" | ">=" | "<=" | "<" | ">" | "*=";

/** A leaf condition such as `-#label>=2` or `check-success=test`. */
export interface ConditionLeaf {
  kind: "leaf";
  /** The condition as written by the user (trimmed). */
  text: string;
  /** Attribute name, e.g. "label", "check-success", "commits[0].author". */
  attribute: string;
  /** `-` modifier. */
  negate: boolean;
  /** `#` modifier: compare the length of the attribute. */
  length: boolean;
  /** Null for a bare boolean attribute (`draft`, `-conflict`). */
  operator: Operator | null;
  /**
   * The value: string (quotes removed), number (for `#attr`, numeric attributes), RegExp source
   * (for `~=`, compiled separately), a timestamp or relative time, a schedule; null when bare.
   */
  value: ConditionValue | null;
  /** The value as written after the operator (trimmed, quotes kept), for renderings; absent when bare. */
  valueText?: string;
  /** Note shown next to the leaf in renderings (e.g. "🛡 GitHub branch protection"). */
  description?: string;
}

/** The value of a leaf, by kind; see docs/conditions.md "Values". */
export type ConditionValue =
  | { type: "string"; value: string }
  | { type: "number"; value: number }
  | { type: "regex"; source: string; flags: string }
  | { type: "timestamp"; value: Date }
  | { type: "relative"; seconds: Seconds }
  | { type: "schedule"; schedule: Schedule }
  | { type: "permission"; value: "none" | "read" | "triage" | "write" | "maintain" | "admin" }
  | { type: "template"; template: string }
  /** `*=` glob pattern (`**`, `*`, `?`, `[seq]`, `[!seq]`, `{a,b}`), matched whole; docs/conditions.md "Globs". */
  | { type: "glob"; pattern: string }
  /** `current-datetime=start/end[Zone]`, fields may be wildcards (`XXXX-12-25T00:00/...`). */
  | { type: "interval"; interval: DatetimeInterval }
  /** Legacy `current-time>=09:00[Zone]`. */
  | { type: "time-of-day"; hour: number; minute: number; timezone: string };

/**
 * One end of a {@link DatetimeInterval}: each field is a number or null for a wildcard (`XXXX`,
 * `XX`) that takes the current value. Month 1-12, day 1-31, hour 0-23, minute 0-59.
 */
export interface PartialDatetime {
  year: number | null;
  month: number | null;
  day: number | null;
  hour: number | null;
  minute: number | null;
}

/** A `start/end[Zone]` interval of `current-datetime`; both ends inclusive to the minute. */
export interface DatetimeInterval {
  start: PartialDatetime;
  end: PartialDatetime;
  /** IANA zone; "UTC" when none was written. */
  timezone: string;
}

/** A days/times window (`Mon-Fri 09:00-17:30[Europe/Paris]`). Days 1 (Monday) to 7 (Sunday). */
export interface Schedule {
  days: { from: number; to: number } | null;
  times: { from: { hour: number; minute: number }; to: { hour: number; minute: number } } | null;
  /** IANA zone; "UTC" when none was written. */
  timezone: string;
}

/** `and` / `or` / `not` groups; a condition list is an implicit `and`. */
export interface ConditionGroup {
  kind: "and" | "or" | "not";
  /** For `not`: exactly one element. */
  conditions: Condition[];
  description?: string;
}

/** A node of a condition tree. */
export type Condition = ConditionLeaf | ConditionGroup;

/**
 * Three-valued result: "pending" when a check the condition reads has not concluded yet, so the
 * result may still change (waiting for CI, as opposed to failed).
 */
export type Truth = true | false | "pending";

/** An evaluated condition tree, for renderings (Markdown checklist) and the API. */
export interface EvaluatedCondition {
  condition: Condition;
  match: Truth;
  /** Set when the leaf could not be evaluated (the leaf is then false). */
  error?: string;
  /** Children of a group, in order. */
  subconditions: EvaluatedCondition[];
  /** The earliest future instant at which the result can change by time alone (UTC); null if never. */
  nextChangeAt: Date | null;
  /** Checks whose state this leaf read. */
  relatedChecks: string[];
}

// ---------------------------------------------------------------------------------------------
// Sections.

/** Merge methods a queue rule may name (docs/domain.md §1.2). */
export type MergeMethodSetting = "merge" | "squash" | "rebase" | "fast-forward" | "merge-batch";

/** One `queue_rules` entry with every default filled. */
export interface QueueRuleConfig {
  name: string;
  /** Must match for a pull request to enter this queue; [] = always. */
  queue_conditions: Condition[];
  /** Must match (on the speculative check) before merging; [] = always. */
  merge_conditions: Condition[];
  branch_protection_injection_mode: "queue" | "merge" | "none";
  /** Fixed size n is {min: n, max: n}; each 1-128. */
  batch_size: { min: number; max: number };
  batch_max_wait_time: Seconds;
  /** null = never time out; "auto" is resolved by the engine from recent CI durations. */
  checks_timeout: Seconds | "auto" | null;
  max_checks_retries: number;
  draft_bot_account: string | null;
  merge_bot_account: string | null;
  update_bot_account: string | null;
  queue_branch_prefix: string;
  allow_queue_branch_edit: boolean;
  /** null = unlimited; 0 = dequeue a failed batch without bisecting. */
  batch_max_failure_resolution_attempts: number | null;
  /** null = the first method the repository allows ("merge" on the local forge). */
  merge_method: MergeMethodSetting | null;
  /** null resolves to "rebase" when merge_method is fast-forward, else "merge". */
  update_method: "merge" | "rebase" | null;
  commit_message_template: string | null;
  commit_message_format: {
    title: "inherit" | "pr-title";
    body: "inherit" | "pr-body" | "empty";
    trailers: ("co-authored-by" | "approved-by" | "merged-by")[];
  } | null;
  /** Deprecated; accepted and reported. Default true. */
  allow_inplace_checks: boolean;
  /** Deprecated; accepted and reported. Default false. */
  autosquash: boolean;
  /** Rank in file order, first rule highest (API output `priority`). */
  priority: number;
  /** Deprecated alias of merge_method fast-forward, kept for the API output; null when unset. */
  queue_branch_merge_method?: "fast-forward" | null;
  /** Legacy queue-level interruption setting (null when unset); see priority_rules for the current one. */
  allow_checks_interruption?: boolean | null;
  /** Legacy: names of queue rules whose pull requests may not interrupt this queue's checks. */
  disallow_checks_interruption_from_queues?: string[];
  /** Deprecated: queue pull requests automatically when queue_conditions match. Default false. */
  autoqueue?: boolean;
  /**
   * True when neither the rule (nor `defaults`) sets `batch_size` or `batch_max_wait_time` and
   * `merge_queue` sets no `max_parallel_checks` (nor a rule `speculative_checks`): the runner then
   * chooses the three from the repository's observed traffic (docs/self-tuning.md); the values
   * above are the static defaults used until there is enough traffic to measure.
   */
  self_tuned?: boolean;
  /**
   * risk_aware_batching: a pull request whose own signals say it is likely to fail (its own CI
   * failed, it touches a known flaky test, a large change) ends its batch, alone when it comes
   * first (docs/merge-queue.md "Risk-aware batching"). Absent = false (set only when written).
   */
  risk_aware_batching?: boolean;
}

/** `merge_queue` with every default filled (docs/domain.md §1.3). */
export interface MergeQueueConfig {
  /** 1-128, default 5; 1 disables speculation. */
  max_parallel_checks: number;
  mode: "serial" | "parallel" | "isolated";
  reset_on_external_merge: "always" | "never";
  skip_intermediate_results: boolean;
  queued_label: string | null;
  checking_label: string | null;
  dequeued_label: string | null;
  status_comments: "all" | "outcomes" | "none";
  queue_controls_comment: boolean;
}

/** One priority rule; the first matching rule gives a queued pull request its priority. */
export interface PriorityRuleConfig {
  name: string;
  conditions: Condition[];
  /** 1-10000; aliases low 1000, medium 2000, high 3000. */
  priority: number;
  allow_checks_interruption: boolean;
}

/** `scopes` with defaults filled; null in Configuration when the section is absent. */
export interface ScopesConfig {
  source:
    | { type: "files"; scopes: Record<string, { include: string[]; exclude: string[] }> }
    | { type: "manual" }
    | null;
  barrier_files: { include: string[]; exclude: string[] } | null;
  merge_queue_scope: string;
  capacities: Record<string, number>;
  default_capacity: number | null;
}

/** One legacy partition rule (docs/domain.md §1.5). */
export interface PartitionRuleConfig {
  name: string;
  conditions: Condition[];
  fallback_partition: boolean;
}

/** One workflow automation rule; duplicate names are suffixed " #1", " #2"... */
export interface PullRequestRuleConfig {
  name: string;
  description: string | null;
  disabled: { reason: string } | null;
  conditions: Condition[];
  /** Action name -> its options (validated per action; defaults filled). */
  actions: Record<string, Record<string, unknown> | null>;
}

/** One merge protection rule. */
export interface MergeProtectionConfig {
  name: string;
  description: string | null;
  if: Condition[];
  success_conditions: Condition[];
}

/** The whole effective configuration. An absent file gives {@link emptyConfiguration}-like values. */
export interface Configuration {
  extends: string | null;
  queue_rules: QueueRuleConfig[];
  merge_queue: MergeQueueConfig;
  priority_rules: PriorityRuleConfig[];
  scopes: ScopesConfig | null;
  partition_rules: PartitionRuleConfig[];
  pull_request_rules: PullRequestRuleConfig[];
  /** Command name -> conditions the sender must match. Defaults filled for every command. */
  commands_restrictions: Record<string, { conditions: Condition[] }>;
  merge_protections: MergeProtectionConfig[];
  merge_protections_settings: {
    reporting_method: "check-runs" | "deployments";
    post_comment: boolean;
    auto_merge: boolean;
    auto_merge_conditions: true | Condition[] | null;
  };
  /** Top-level sections present in the file (before defaults), for unused-section reports. */
  present_sections: string[];
}

/** A configuration error with where it is. */
export interface ConfigError {
  /** Path elements, e.g. ["queue_rules", 0, "batch_size"]. */
  path: (string | number)[];
  /** 1-based line and column in the text; null when not tied to a position. */
  line: number | null;
  column: number | null;
  /** What is wrong and what was expected. */
  message: string;
}

/** A deprecated key or attribute found in a configuration. */
export interface DeprecationFinding {
  message: string;
  /** YYYY-MM-DD. */
  deadline: string;
  path: (string | number)[];
}
