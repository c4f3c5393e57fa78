/**
 * Actions of `pull_request_rules` and `defaults.actions` (docs/domain.md §1.1; options as in
 * the format's schema): one strict schema per action, an unknown action is an error naming the
 * known ones. An action written without options (`merge:`) means all defaults. The deprecated
 * options of the `queue` action (merge settings that now live in `queue_rules`) are accepted and
 * reported; removed options (`strict`, `rebase_fallback`...) are errors that say what replaced
 * them (load/removed-keys.ts).
 */
import { z } from "zod";
import { didYouMean } from "../suggest.js";
import {
  botAccount,
  commitMessageFormat,
  conditionList,
  describeValue,
  int,
  MERGE_METHODS,
  priority,
  simpleTemplate,
} from "./common.js";

const MESSAGE_VARIABLES = [
  "author",
  "number",
  "title",
  "body",
  "base",
  "head",
  "labels",
  "assignees",
  "approvers",
  "queue_dequeue_reason",
];

/** Message templates: Jinja2-style templates are passed through unvalidated (docs/domain.md §1.8). */
const message = z.string().nullable();
const logins = (max: number) => z.array(simpleTemplate(["author", "merged_by"]).pipe(z.string())).max(max);
const weighted = z.union([z.array(z.string()).max(150), z.record(z.string(), int(1, 65535))]);
const dismissTarget = z.union([z.boolean(), z.literal("from_requested_reviewers"), z.array(z.string()).max(50)]);

const copyOptions = {
  bot_account: botAccount().optional(),
  branches: z.array(z.string()).max(30).optional(),
  regexes: z.array(z.string()).max(30).optional(),
  ignore_conflicts: z.boolean().optional(),
  assignees: logins(10).optional(),
  labels: z.array(z.string()).max(30).optional(),
  label_conflicts: z.string().optional(),
  title: z.string().optional(),
  body: z.string().optional(),
  report_mode: z
    .array(z.enum(["check", "comment"]))
    .min(1)
    .optional(),
  merge_conflict_style: z.enum(["merge", "diff3"]).optional(),
};

/** Options of each action, by action name. */
export const ACTION_SCHEMAS = {
  assign: z.strictObject({
    users: logins(10).optional(),
    add_users: logins(10).optional(),
    remove_users: logins(40).optional(),
  }),
  backport: z.strictObject(copyOptions),
  close: z.strictObject({ message: message.optional() }),
  comment: z.strictObject({ message: message.optional(), bot_account: botAccount().optional() }),
  copy: z.strictObject(copyOptions),
  delete_head_branch: z.strictObject({ force: z.boolean().optional() }),
  dequeue: z.strictObject({}),
  dismiss_reviews: z.strictObject({
    approved: dismissTarget.optional(),
    changes_requested: dismissTarget.optional(),
    message: z.string().nullable().optional(),
    when: z.enum(["synchronize", "always"]).optional(),
  }),
  edit: z.strictObject({ bot_account: botAccount().optional(), draft: z.boolean().nullable().optional() }),
  github_actions: z.strictObject({
    workflow: z.strictObject({
      dispatch: z
        .array(
          z.strictObject({
            workflow: z.string().min(1),
            ref: z.string().nullable().optional(),
            inputs: z.record(z.string(), z.union([z.int(), z.boolean(), z.string()])).optional(),
          }),
        )
        .max(10)
        .optional(),
    }),
  }),
  label: z.strictObject({
    add: z.array(z.string()).max(50).optional(),
    remove: z.array(z.string()).max(50).optional(),
    remove_all: z.boolean().optional(),
    toggle: z.array(z.string()).max(50).optional(),
  }),
  merge: z
    .strictObject({
      method: z.enum(["merge", "rebase", "squash", "fast-forward"]).nullable().optional(),
      merge_bot_account: botAccount().optional(),
      commit_message_template: z.string().nullable().optional(),
      commit_message_format: commitMessageFormat.nullable().optional(),
      allow_merging_configuration_change: z.boolean().optional(),
    })
    .superRefine((o, ctx) => {
      if (o.commit_message_template != null && o.commit_message_format != null) {
        ctx.addIssue({
          code: "custom",
          path: ["commit_message_template"],
          message: "commit_message_template and commit_message_format cannot both be set",
        });
      }
    }),
  post_check: z.strictObject({
    title: z.string().optional(),
    summary: z.string().optional(),
    success_conditions: conditionList().nullable().optional(),
    neutral_conditions: conditionList().nullable().optional(),
  }),
  queue: z.strictObject({
    name: z.string().min(1).nullable().optional(),
    // Deprecated: these settings now belong to queue_rules (docs/domain.md §1.7).
    merge_method: z
      .enum(MERGE_METHODS as [string, ...string[]])
      .nullable()
      .optional(),
    method: z
      .enum(MERGE_METHODS as [string, ...string[]])
      .nullable()
      .optional(),
    merge_bot_account: botAccount().optional(),
    update_method: z.enum(["rebase", "merge"]).nullable().optional(),
    update_bot_account: botAccount().optional(),
    commit_message_template: z.string().nullable().optional(),
    priority: priority().optional(),
    require_branch_protection: z.boolean().optional(),
    allow_merging_configuration_change: z.boolean().optional(),
    autosquash: z.boolean().optional(),
  }),
  rebase: z.strictObject({ bot_account: botAccount().optional(), autosquash: z.boolean().optional() }),
  refresh: z.strictObject({}),
  request_reviews: z.strictObject({
    bot_account: botAccount().optional(),
    random_count: int(1, 15).nullable().optional(),
    users: weighted.optional(),
    teams: weighted.optional(),
    users_from_teams: weighted.optional(),
  }),
  review: z.strictObject({
    type: z.enum(["APPROVE", "REQUEST_CHANGES", "COMMENT"]).optional(),
    message: message.optional(),
    bot_account: botAccount().optional(),
  }),
  squash: z.strictObject({
    bot_account: botAccount().optional(),
    commit_message: z.enum(["all-commits", "first-commit", "title+body"]).optional(),
  }),
  update: z.strictObject({ bot_account: botAccount().optional() }),
} as const;

/** Names written for actions that exist under another name. */
const MISNAMED_ACTIONS: Record<string, string> = {
  approve: " (to approve, use the review action with type: APPROVE)",
  requeue: " (requeue is a comment command; the queue action queues again)",
};

/** Names of every action. */
export const ACTION_NAMES: readonly string[] = Object.keys(ACTION_SCHEMAS);

/** Variables message templates may use (documentation only; messages are not validated). */
export const MESSAGE_TEMPLATE_VARIABLES: readonly string[] = MESSAGE_VARIABLES;

/**
 * An `actions` object: action name -> options (null or missing options = defaults). Validates
 * each known action with its schema and reports unknown actions by name.
 */
export const actions = z.unknown().transform((value, ctx) => {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    ctx.addIssue({
      code: "custom",
      message: `expected an object of actions (action name: options), got ${describeValue(value)}`,
      input: value,
    });
    return z.NEVER;
  }
  const out: Record<string, Record<string, unknown>> = {};
  let failed = false;
  for (const [name, options] of Object.entries(value as Record<string, unknown>)) {
    const schema = (ACTION_SCHEMAS as Record<string, z.ZodType>)[name];
    if (schema === undefined) {
      const hint = MISNAMED_ACTIONS[name] ?? didYouMean(name, ACTION_NAMES);
      ctx.addIssue({
        code: "custom",
        path: [name],
        message: `unknown action "${name}"${hint}; expected one of ${ACTION_NAMES.join(", ")}`,
        input: options,
      });
      failed = true;
      continue;
    }
    const parsed = schema.safeParse(options ?? {}, { reportInput: true });
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        ctx.addIssue({ ...issue, path: [name, ...issue.path] } as Parameters<typeof ctx.addIssue>[0]);
      failed = true;
      continue;
    }
    out[name] = parsed.data as Record<string, unknown>;
  }
  return failed ? z.NEVER : out;
});

/** Validated actions: action name -> options as written. */
export type RawActions = z.output<typeof actions>;
