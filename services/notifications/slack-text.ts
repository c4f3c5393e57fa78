/**
 * One readable sentence per activity log event, for Slack-compatible webhooks
 * (docs/notifications.md "Slack"): the repository, the pull request, what happened and why, in
 * Slack's mrkdwn (https://api.slack.com/reference/surfaces/formatting: `*bold*`, `<url|text>`;
 * `&`, `<` and `>` escaped in text that comes from users). The queue's own events get a sentence
 * each; any other type a generic one naming it in words. The metadata is read defensively: a
 * field absent or of another shape is left out of the sentence, never an error.
 */
import type { DeliveryEvent } from "../store/index.js";

// biome-ignore lint/suspicious/noExplicitAny: metadata objects of 47 shapes, read field by field with checks
type Metadata = Record<string, any>;

/** Slack's text escapes (https://api.slack.com/reference/surfaces/formatting#escaping). */
export const escapeSlack = (text: string): string =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? escapeSlack(v) : undefined);
const numbers = (v: unknown): string =>
  Array.isArray(v) && v.length > 0 ? v.map((n) => `#${String(n)}`).join(", ") : "";
const who = (actor: unknown): string => {
  const name = str((actor as Metadata | undefined)?.name) ?? str((actor as Metadata | undefined)?.login);
  return name ? ` by ${name}` : "";
};
const into = (m: Metadata, e: DeliveryEvent) => {
  const branch = str(m.branch) ?? (e.baseRef ? escapeSlack(e.baseRef) : undefined);
  return branch ? ` into \`${branch}\`` : "";
};
const queueOf = (m: Metadata, e: DeliveryEvent) => {
  const branch = str(m.branch) ?? (e.baseRef ? escapeSlack(e.baseRef) : undefined);
  return branch ? ` of \`${branch}\`` : "";
};
const reasonOf = (m: Metadata) => (str(m.reason) ? `: ${str(m.reason)}` : "");
const failing = (m: Metadata) => {
  const names = Array.isArray(m.unsuccessful_checks)
    ? m.unsuccessful_checks.map((c: Metadata) => str(c?.name)).filter((n: string | undefined) => n !== undefined)
    : [];
  return names.length > 0 ? ` (failing: ${names.join(", ")})` : "";
};

/** The words of an event type with no sentence of its own: `action.queue.checks_postponed` → "checks postponed". */
export function typeInWords(type: string): string {
  const last = type.replace(/^action\.queue\./, "").replace(/^action\./, "");
  return last.replaceAll(".", " ").replaceAll("_", " ");
}

/** The sentence of each event type that has one (the subject, the pull request or repository, comes first). */
const SENTENCES: Record<string, (m: Metadata, e: DeliveryEvent) => string> = {
  "action.queue.enter": (m, e) =>
    `entered the merge queue${queueOf(m, e)}${m.queue_name ? ` (queue rule \`${str(m.queue_name)}\`)` : ""}`,
  "action.queue.merged": (m, e) =>
    `was merged${into(m, e)} by the merge queue${str(m.merge_commit_sha) ? ` (${str(m.merge_commit_sha)!.slice(0, 12)})` : ""}`,
  "action.queue.leave": (m, e) =>
    m.merged === true
      ? `left the merge queue${queueOf(m, e)}: merged`
      : `was removed from the merge queue${queueOf(m, e)}${str(m.dequeue_code) ? ` (${str(m.dequeue_code)})` : ""}${reasonOf(m)}`,
  "action.queue.checks_start": (m) =>
    `${str(m.batch_name) ?? "a batch"} started its checks${numbers(m.pull_request_numbers) ? ` for ${numbers(m.pull_request_numbers)}` : ""}`,
  "action.queue.checks_end": (m) => {
    const conclusion = str(m.speculative_check_pull_request?.checks_conclusion) ?? (m.aborted ? "aborted" : "ended");
    const abort = m.aborted && str(m.abort_reason) ? `: ${str(m.abort_reason)}` : "";
    return `${str(m.batch_name) ?? "a batch"}'s checks ended: ${conclusion}${failing(m)}${abort}`;
  },
  "action.queue.batch_bisection_start": (m) =>
    `${str(m.batch_name) ?? "a batch"} failed and is being bisected${numbers(m.original_batch_pr_numbers) ? ` (${numbers(m.original_batch_pr_numbers)})` : ""} to find the culprit`,
  "action.queue.batch_bisection_end": (m) =>
    m.culprit_found === true && numbers(m.culprit_pr_numbers)
      ? `bisection of ${str(m.batch_name) ?? "a batch"} found the culprit: ${numbers(m.culprit_pr_numbers)}`
      : `bisection of ${str(m.batch_name) ?? "a batch"} ended without a culprit`,
  "action.queue.conflict_deferred": (m) => `was set aside: it conflicts with a pull request ahead${reasonOf(m)}`,
  "action.queue.checks_postponed": (m) => `could not be checked yet${reasonOf(m)}`,
  "command.queue": (m) => `was queued${who(m.author)} with a command`,
  "command.dequeue": (m) => `was dequeued${who(m.author)} with a command`,
  "queue.pause.create": (m) => `merge queue paused${who(m.created_by)}${reasonOf(m)}`,
  "queue.pause.update": (m) => `merge queue pause changed${who(m.updated_by)}${reasonOf(m)}`,
  "queue.pause.delete": (m) => `merge queue unpaused${who(m.deleted_by)}`,
  "scheduled_freeze.create": (m) =>
    `scheduled freeze created${who(m.created_by)}${str(m.scheduled_freeze_attributes?.reason) ? `: ${str(m.scheduled_freeze_attributes.reason)}` : ""}`,
  "scheduled_freeze.update": (m) => `scheduled freeze changed${who(m.updated_by)}`,
  "scheduled_freeze.delete": (m) => `scheduled freeze deleted${who(m.deleted_by)}${reasonOf(m)}`,
  "product.enabled": (m) => `${str(m.product) ?? "a product"} enabled${who(m.enabled_by)}`,
  "product.disabled": (m) => `${str(m.product) ?? "a product"} disabled${who(m.disabled_by)}`,
};

/** Types whose sentence is a statement of its own (a batch's), not a predicate of the pull request. */
const STATEMENTS = new Set([
  "action.queue.checks_start",
  "action.queue.checks_end",
  "action.queue.batch_bisection_start",
  "action.queue.batch_bisection_end",
]);

/**
 * The Slack sentence of an event: `*owner/name* #42 was merged into \`main\` by the merge queue`;
 * a batch's event `*owner/name* (#42): Batch 3's checks ended: failure (failing: test)`; a
 * repository-level event `*owner/name*: merge queue paused by admin application key: release 1.0`.
 * A type without a sentence of its own is named in words, with its trigger, and a failed action
 * (outcome failure) says so with its error.
 */
export function slackText(e: DeliveryEvent, metadata: Metadata): string {
  const repository = `*${escapeSlack(e.repository)}*`;
  const sentence = SENTENCES[e.type];
  if (sentence) {
    const text = sentence(metadata, e);
    if (e.pullRequest === null) return `${repository}: ${text}`;
    return STATEMENTS.has(e.type)
      ? `${repository} (#${e.pullRequest}): ${text}`
      : `${repository} #${e.pullRequest} ${text}`;
  }
  const failed = e.outcome === "failure" ? ` failed${str(metadata.error) ? `: ${str(metadata.error)}` : ""}` : "";
  const trigger = e.trigger ? ` (${escapeSlack(e.trigger)})` : "";
  const subject = e.pullRequest !== null ? `${repository} #${e.pullRequest}` : repository;
  return `${subject}: ${typeInWords(e.type)}${failed}${trigger}`;
}
