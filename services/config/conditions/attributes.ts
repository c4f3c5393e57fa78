/**
 * The attribute catalogue of the conditions language: every attribute a condition may name, the
 * operators and modifiers it accepts and the type of its value. Source: docs/domain.md §2.2
 * (the format's PullRequestAttributes schema) and docs/conditions.md "Attributes".
 */
import type { Operator } from "../model.js";
import { FAILURE_CHECK_STATES } from "./check-states.js";

/** How the value written after the operator is read (docs/conditions.md "Values"). */
export type ValueType =
  | "text" // any text, quotes removed, `{{ author }}` allowed
  | "login" // a user login, `@team` or `@org/team`, or `{{ author }}`
  | "branch" // a branch name: none of `~^: []\`
  | "number" // an integer
  | "timestamp" // ISO-8601 timestamp or relative time (`3 days ago`)
  | "datetime" // current-datetime: timestamp, or `start/end[Zone]` interval with XX wildcards
  | "schedule" // `Mon-Fri 09:00-17:30[Europe/Paris]`
  | "permission" // none < read < triage < write < maintain < admin
  | "dequeue-reason" // a queue-dequeue-reason code, kebab-case or upper case
  | "review-decision" // APPROVED, CHANGES_REQUESTED, REVIEW_REQUIRED
  | "depends-on" // `#123` or `owner/repo#123`
  | "bool" // bare attribute only
  | "time-of-day" // legacy current-time: HH:MM[Zone]
  | "day" // legacy current-day: 1-31
  | "month" // legacy current-month: 1-12
  | "year" // legacy current-year: 2000-9999
  | "day-of-week"; // legacy current-day-of-week: 1-7 or mon..sun

/** Whether the `#` (length) modifier is refused, accepted, or the only way to use the attribute. */
export type LengthRule = "no" | "allowed" | "required";

/** What the grammar and the evaluator know about one attribute. */
export interface AttributeSpec {
  name: string;
  value: ValueType;
  /** The attribute holds a list (labels, checks, files...): operators match any element, `!=` all. */
  list: boolean;
  /** Operators accepted without `#` ([] for booleans). */
  operators: readonly Operator[];
  /** Operators accepted with `#`: the numeric set. */
  length: LengthRule;
  /** `-` accepted. */
  negate: boolean;
  /** The value may be null (no milestone, not merged...). */
  nullable: boolean;
  /** Its result depends on the current time (nextChangeAt is computed). */
  timeBased: boolean;
  /** Set by the service only (branch protection injection); users may not write it. */
  injectedOnly?: boolean;
  /** For check-* attributes: the check states that put a check in this attribute. */
  checkStates?: readonly string[];
  /** Deprecated spelling: the attribute to read instead (for evaluation) and the deprecation key. */
  aliasOf?: string;
  /** Only usable with `#` or through `commits[<i>].<field>` (lists of objects). */
  objectList?: boolean;
  description: string;
}

/** Operators of text attributes (docs/domain.md §2.2 TXT). */
export const TEXT_OPERATORS: readonly Operator[] = ["=", "!=", "~=", ">=", "<=", "<", ">", "*="];
/** Operators of numbers and of `#` lengths (NUM). */
export const NUMBER_OPERATORS: readonly Operator[] = ["=", "!=", ">=", "<=", "<", ">"];
/** Operators of timestamps (TS). */
export const TIME_OPERATORS: readonly Operator[] = [">=", "<=", "<", ">"];

function text(name: string, description: string, extra: Partial<AttributeSpec> = {}): AttributeSpec {
  return {
    name,
    value: "text",
    list: false,
    operators: TEXT_OPERATORS,
    length: "allowed",
    negate: true,
    nullable: false,
    timeBased: false,
    description,
    ...extra,
  };
}
function textList(name: string, description: string, extra: Partial<AttributeSpec> = {}): AttributeSpec {
  return text(name, description, { list: true, ...extra });
}
function bool(name: string, description: string, extra: Partial<AttributeSpec> = {}): AttributeSpec {
  return {
    name,
    value: "bool",
    list: false,
    operators: [],
    length: "no",
    negate: true,
    nullable: false,
    timeBased: false,
    description,
    ...extra,
  };
}
function timestamp(name: string, description: string, nullable: boolean): AttributeSpec {
  return {
    name,
    value: "timestamp",
    list: false,
    operators: TIME_OPERATORS,
    length: "no",
    negate: false,
    nullable,
    timeBased: true,
    description,
  };
}
function check(
  name: string,
  states: readonly string[],
  description: string,
  extra: Partial<AttributeSpec> = {},
): AttributeSpec {
  return textList(name, description, { checkStates: states, ...extra });
}

// biome-ignore format: a table, one row per line
const SPECS: AttributeSpec[] = [
  bool("draft", "The pull request is a draft."),
  bool("merged", "The pull request is merged."),
  bool("closed", "The pull request is closed (merged pull requests are closed too)."),
  bool("locked", "The pull request conversation is locked."),
  bool("conflict", "The pull request conflicts with its base branch."),
  bool("linear-history", "No commit of the pull request is a merge commit."),
  bool("from-fork", "The head branch lives in another repository."),
  bool("yardmaster-configuration-changed", "The pull request changes the Yardmaster configuration file."),
  bool("mergify-configuration-changed", "Deprecated name of yardmaster-configuration-changed.", { aliasOf: "yardmaster-configuration-changed" }),
  bool("github-require-review-from-specific-teams", "Injected: required team reviews are satisfied.", { injectedOnly: true }),
  bool("github-code-owner-review-satisfied", "Injected: code owners approved.", { injectedOnly: true }),
  bool("github-review-approved", "Injected: the platform's review requirement is satisfied.", { injectedOnly: true }),
  bool("github-require-last-push-approval", "Injected: the last push is approved.", { injectedOnly: true }),
  { name: "number", value: "number", list: false, operators: NUMBER_OPERATORS, length: "no", negate: true, nullable: false, timeBased: false, description: "The pull request number." },
  { name: "queue-position", value: "number", list: false, operators: NUMBER_OPERATORS, length: "no", negate: true, nullable: false, timeBased: false, description: "Position in its queue, 0 for the head; -1 when not queued." },
  text("author", "Login of the pull request author.", { value: "login" }),
  text("merged-by", "Login of the user who merged the pull request.", { value: "login", nullable: true }),
  text("merge-commit-sha", "SHA of the merge commit.", { nullable: true }),
  text("milestone", "Title of the milestone.", { nullable: true, operators: ["=", "!=", "~=", ">=", "<=", "<", ">"] }),
  text("base", "Name of the base branch.", { value: "branch" }),
  text("head", "Name of the head branch.", { value: "branch" }),
  text("head-repo-full-name", "owner/name of the repository holding the head branch."),
  text("title", "Title of the pull request."),
  text("body", "Description of the pull request, HTML comments removed."),
  text("body-raw", "Description of the pull request as written."),
  text("repository-name", "Name of the repository, without its owner."),
  text("repository-full-name", "owner/name of the repository."),
  text("queue-name", "Name of the queue rule the pull request is queued with.", { nullable: true }),
  text("sender", "Login of the user who sent the command.", { value: "login" }),
  text("queue-dequeue-reason", "Why the pull request last left the queue (a dequeue code).", { value: "dequeue-reason", nullable: true, operators: ["=", "!=", "~="] }),
  text("github-review-decision", "The platform's review decision.", { value: "review-decision", nullable: true, operators: ["=", "!=", "~="] }),
  textList("label", "Labels of the pull request."),
  textList("assignee", "Logins assigned to the pull request.", { value: "login" }),
  textList("review-requested", "Logins and @teams asked to review.", { value: "login" }),
  textList("approved-reviews-by", "Logins whose latest review approves.", { value: "login" }),
  textList("dismissed-reviews-by", "Logins whose review was dismissed.", { value: "login" }),
  textList("changes-requested-reviews-by", "Logins whose latest review requests changes.", { value: "login" }),
  textList("commented-reviews-by", "Logins whose latest review is a comment.", { value: "login" }),
  textList("files", "Paths changed by the pull request (both paths of a rename)."),
  textList("added-files", "Paths added by the pull request."),
  textList("modified-files", "Paths modified by the pull request."),
  textList("removed-files", "Paths removed by the pull request."),
  check("check-success", ["success"], "Checks that succeeded."),
  check("check-failure", FAILURE_CHECK_STATES, "Checks that failed (also cancelled, timed out and action required)."),
  check("check-neutral", ["neutral"], "Checks that concluded neutral."),
  check("check-skipped", ["skipped"], "Checks that were skipped."),
  check("check-cancelled", ["cancelled"], "Checks that were cancelled."),
  check("check-timed-out", ["timed_out"], "Checks that timed out."),
  check("check-pending", ["pending"], "Checks still running."),
  check("check-stale", ["stale"], "Checks marked stale."),
  check("check", ["success", "pending", "neutral", "skipped", "stale", ...FAILURE_CHECK_STATES], "Every check, whatever its state."),
  check("check-success-or-neutral", ["success", "neutral"], "Deprecated: checks that succeeded or concluded neutral.", { aliasOf: "check-success-or-neutral" }),
  check("status-success", ["success"], "Deprecated name of check-success.", { aliasOf: "check-success" }),
  check("status-failure", FAILURE_CHECK_STATES, "Deprecated name of check-failure.", { aliasOf: "check-failure" }),
  check("status-neutral", ["neutral"], "Deprecated name of check-neutral.", { aliasOf: "check-neutral" }),
  textList("commits-unverified", "Titles of commits whose signature is not verified."),
  textList("deployment-success", "Deployments that succeeded."),
  textList("deployment-failure", "Deployments that failed."),
  textList("review-threads-resolved", "Resolved review threads."),
  textList("review-threads-unresolved", "Review threads not resolved."),
  textList("dependabot-dependency-name", "dependency-name values of a Dependabot commit."),
  textList("dependabot-dependency-type", "dependency-type values of a Dependabot commit."),
  textList("dependabot-update-type", "update-type values of a Dependabot commit."),
  textList("depends-on", "Pull requests named by `Depends-On:` lines that are merged.", { value: "depends-on" }),
  textList("scope", "Scopes of the pull request."),
  textList("commits", "Commits of the pull request; use `#commits` or `commits[<i>].<field>`.", { objectList: true }),
  textList("co-authors", "Co-authors of the commits; use `#co-authors`.", { objectList: true }),
  textList("updates", "Head updates of the pull request; use `#updates`.", { objectList: true }),
  textList("added-lines", "Added lines; use `#added-lines`.", { length: "required" }),
  textList("modified-lines", "Added plus deleted lines; use `#modified-lines`.", { length: "required" }),
  textList("deleted-lines", "Deleted lines; use `#deleted-lines`.", { length: "required" }),
  textList("commits-behind", "Commits on the base branch missing from the pull request; use `#commits-behind`.", { length: "required", operators: NUMBER_OPERATORS }),
  timestamp("created-at", "When the pull request was opened.", false),
  timestamp("updated-at", "When the pull request was last updated.", false),
  timestamp("closed-at", "When the pull request was closed.", true),
  timestamp("merged-at", "When the pull request was merged.", true),
  timestamp("queued-at", "When the pull request entered the queue.", true),
  timestamp("queue-merge-started-at", "When the queue started checking the pull request.", true),
  { name: "current-datetime", value: "datetime", list: false, operators: NUMBER_OPERATORS, length: "no", negate: false, nullable: false, timeBased: true, description: "The current date and time." },
  { name: "schedule", value: "schedule", list: false, operators: ["=", "!="], length: "no", negate: false, nullable: false, timeBased: true, description: "The current time is inside the days/times window." },
  { name: "sender-permission", value: "permission", list: false, operators: NUMBER_OPERATORS, length: "no", negate: true, nullable: false, timeBased: false, description: "Permission of the command sender: none < read < triage < write < maintain < admin." },
  { name: "current-time", value: "time-of-day", list: false, operators: TIME_OPERATORS, length: "no", negate: false, nullable: false, timeBased: true, description: "Deprecated: the current time of day.", aliasOf: "current-time" },
  { name: "current-day", value: "day", list: false, operators: NUMBER_OPERATORS, length: "no", negate: true, nullable: false, timeBased: true, description: "Deprecated: the current day of the month.", aliasOf: "current-day" },
  { name: "current-month", value: "month", list: false, operators: NUMBER_OPERATORS, length: "no", negate: true, nullable: false, timeBased: true, description: "Deprecated: the current month.", aliasOf: "current-month" },
  { name: "current-year", value: "year", list: false, operators: NUMBER_OPERATORS, length: "no", negate: true, nullable: false, timeBased: true, description: "Deprecated: the current year.", aliasOf: "current-year" },
  { name: "current-day-of-week", value: "day-of-week", list: false, operators: NUMBER_OPERATORS, length: "no", negate: true, nullable: false, timeBased: true, description: "Deprecated: the current day of the week, 1 (Monday) to 7.", aliasOf: "current-day-of-week" },
  { name: "current-timestamp", value: "datetime", list: false, operators: TIME_OPERATORS, length: "no", negate: false, nullable: false, timeBased: true, description: "Deprecated: the current timestamp.", aliasOf: "current-datetime" },
];

/** Every attribute by name. */
export const ATTRIBUTES: ReadonlyMap<string, AttributeSpec> = new Map(SPECS.map((s) => [s.name, s]));

/** Attribute names longest first, so `merged-at` is tried before `merged` (docs/domain.md §2.1 step 2). */
export const ATTRIBUTE_NAMES_LONGEST_FIRST: readonly string[] = [...ATTRIBUTES.keys()].sort(
  (a, b) => b.length - a.length,
);

/** Fields of `commits[<index>|*].<field>` and the type of each. */
export const COMMIT_FIELDS: ReadonlyMap<string, "text" | "bool" | "timestamp"> = new Map([
  ["author", "text"],
  ["committer", "text"],
  ["commit_message", "text"],
  ["email_author", "text"],
  ["email_committer", "text"],
  ["commit_verification_verified", "bool"],
  ["date_author", "timestamp"],
  ["date_committer", "timestamp"],
]);

/**
 * The specification of a commit sub-attribute such as `commits[*].date_committer`, built on demand.
 * `list` is true for the `*` index (any commit).
 */
export function commitFieldSpec(name: string, field: string, any: boolean): AttributeSpec | null {
  const kind = COMMIT_FIELDS.get(field);
  if (kind === undefined) return null;
  if (kind === "bool") return bool(name, `The commit field ${field}.`, { list: any });
  if (kind === "timestamp") return { ...timestamp(name, `The commit field ${field}.`, true), list: any };
  return text(name, `The commit field ${field}.`, { list: any, nullable: true });
}

/** Attributes whose check data can still change while a check runs (pending logic, docs/conditions.md). */
export function isCheckAttribute(spec: AttributeSpec): boolean {
  return spec.checkStates !== undefined && spec.name !== "check-pending";
}
