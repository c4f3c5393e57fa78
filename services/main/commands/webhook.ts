/**
 * `yardmaster webhook add|list|remove|deliveries|redeliver owner/name` (docs/notifications.md
 * "CLI"): a repository's outgoing webhooks and their delivery log, through WebhookService on the
 * running service.
 */
import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { InvalidArgumentError, type Command } from "commander";
import {
  WebhookFormat,
  WebhookService,
  type Webhook,
  type WebhookDelivery,
} from "../../../gen/yardmaster/v1/webhooks_pb.js";
import { serviceClient } from "../rpc-client.js";
import { readSettings } from "../settings.js";
import { out } from "./output.js";
import { parseRepoArgument } from "./repo.js";

type Repo = { owner: string; repository: string };

const client = () => serviceClient(WebhookService, readSettings());
const collect = (value: string, previous: string[]) => [...previous, ...value.split(",").filter((v) => v !== "")];
const utc = (t: Timestamp | undefined) =>
  t === undefined
    ? "-"
    : timestampDate(t)
        .toISOString()
        .replace(/\.\d{3}Z$/, "Z");

/**
 * The `--format` option.
 * @throws InvalidArgumentError (a usage error) unless json or slack
 */
function parseFormat(value: string): WebhookFormat {
  if (value === "json") return WebhookFormat.json;
  if (value === "slack") return WebhookFormat.slack;
  throw new InvalidArgumentError(`"${value}" must be json or slack`);
}

/** The line of one webhook. */
export function webhookLine(w: Webhook): string {
  const format = w.format === WebhookFormat.slack ? "slack" : "json";
  return `${w.id}  ${format}  ${w.url}  ${w.eventTypes.join(",")}${w.description ? `  ${w.description}` : ""}`;
}

/** The lines of one delivery: its state, then each attempt. */
export function deliveryLines(d: WebhookDelivery): string[] {
  const pull = d.pullRequest === undefined ? "" : ` #${d.pullRequest}`;
  const next = d.state === "pending" && d.nextAttemptAt ? ` (next attempt ${utc(d.nextAttemptAt)})` : "";
  return [
    `${d.id}  ${d.state}${next}  ${d.eventType}${pull}  event ${d.eventId}  webhook ${d.webhookId}`,
    ...d.attempts.map(
      (a) =>
        `  attempt ${a.attempt}${a.redelivery ? " (redelivery)" : ""}  ${utc(a.startedAt)}  ${a.durationMs} ms  ${
          a.statusCode !== undefined ? `status ${a.statusCode}` : "no answer"
        }${a.error && a.statusCode === undefined ? `: ${a.error}` : ""}`,
    ),
  ];
}

/** Adds `webhook add|list|remove|deliveries|redeliver` to the CLI. */
export function registerWebhook(program: Command): void {
  const webhook = program
    .command("webhook")
    .description("outgoing webhooks: activity log events POSTed to a URL, signed, retried, logged");
  webhook
    .command("add")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .requiredOption("--url <url>", "where events are POSTed (http:// or https://)")
    .requiredOption(
      "--event <type>",
      "an event type, `prefix.*` or `*` (repeatable, or comma-separated), e.g. action.queue.merged",
      collect,
      [],
    )
    .option("--format <format>", "json (signed event) or slack (an incoming-webhook message)", parseFormat)
    .option("--secret <secret>", "the signing secret, 16-200 characters (default: generated and printed once)")
    .option("--description <text>", "what it is for", "")
    .description("subscribe a URL to event types")
    .action(
      async (
        repo: Repo,
        o: { url: string; event: string[]; format?: WebhookFormat; secret?: string; description: string },
      ) => {
        const res = await (await client()).createWebhook({
          ...repo,
          url: o.url,
          eventTypes: o.event,
          format: o.format ?? WebhookFormat.json,
          secret: o.secret ?? "",
          description: o.description,
        });
        out(webhookLine(res.webhook!));
        if (!o.secret) process.stderr.write(`signing secret (shown only now): ${res.secret}\n`);
      },
    );
  webhook
    .command("list")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .description("the repository's webhooks: id, format, URL, event types")
    .action(async (repo: Repo) => {
      const res = await (await client()).listWebhooks(repo);
      if (res.webhooks.length === 0) out("no webhooks");
      for (const w of res.webhooks) out(webhookLine(w));
    });
  webhook
    .command("remove")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .argument("<id>", "the webhook (as `webhook list` shows it)")
    .description("remove a webhook; deliveries not yet sent are dropped")
    .action(async (repo: Repo, id: string) => {
      await (await client()).deleteWebhook({ ...repo, id });
      out(`webhook ${id} removed`);
    });
  webhook
    .command("deliveries")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .option("--webhook <id>", "only this webhook's deliveries")
    .option("--limit <n>", "how many, newest first (1-100)", "30")
    .description("the delivery log: each delivery's state and attempts (time, duration, status)")
    .action(async (repo: Repo, o: { webhook?: string; limit: string }) => {
      const limit = Number(o.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100)
        throw new InvalidArgumentError(`--limit: "${o.limit}" must be a whole number from 1 to 100`);
      const res = await (await client()).listWebhookDeliveries({ ...repo, webhookId: o.webhook, perPage: limit });
      if (res.deliveries.length === 0) out("no deliveries");
      for (const d of res.deliveries) for (const line of deliveryLines(d)) out(line);
    });
  webhook
    .command("redeliver")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .argument("<delivery>", "the delivery id (as `webhook deliveries` shows it)")
    .description("send a delivery again now, with the same delivery id and body")
    .action(async (repo: Repo, id: string) => {
      const res = await (await client()).redeliverWebhookDelivery({ ...repo, id });
      out(`delivery ${res.delivery!.id} is due again (${res.delivery!.eventType})`);
    });
}
