/**
 * The body of a delivery (docs/notifications.md "Payloads"), written from the event as the outbox
 * held it, the same bytes at every attempt (the signature covers them):
 * - `json`: `{"webhook_id": "<uuid>", "event": <the event as GET /logs shows it>}`: the envelope
 *   of docs/events.md with proto field names, 64-bit integers as exact JSON numbers, `received_at`
 *   RFC 3339 UTC with milliseconds, `metadata` the stored object;
 * - `slack`: a Slack incoming-webhook message, `{"text": "<one sentence>"}` (slack-text.ts;
 *   https://api.slack.com/messaging/webhooks).
 */
import type { DeliveryEvent } from "../store/index.js";
import { slackText } from "./slack-text.js";

/** The event's JSON text, as the activity log's REST answers write it (docs/rest-json.md). */
export function eventJson(e: DeliveryEvent): string {
  const parts = [
    `"id":${e.id}`,
    `"received_at":${JSON.stringify(e.receivedAt.toISOString())}`,
    `"trigger":${JSON.stringify(e.trigger)}`,
    `"repository":${JSON.stringify(e.repository)}`,
    `"pull_request":${e.pullRequest === null ? "null" : e.pullRequest}`,
    `"base_ref":${JSON.stringify(e.baseRef)}`,
    `"outcome":${JSON.stringify(e.outcome)}`,
    `"type":${JSON.stringify(e.type)}`,
    `"metadata":${e.metadata}`,
  ];
  return `{${parts.join(",")}}`;
}

/**
 * The body of a delivery of `event` to the webhook `webhookId` in `format`, and its content type.
 * @throws SyntaxError when the stored metadata is not JSON (it was validated when it was written)
 */
export function deliveryBody(
  format: "json" | "slack",
  webhookId: string,
  event: DeliveryEvent,
): { body: string; contentType: string } {
  if (format === "slack") {
    const metadata = JSON.parse(event.metadata) as Record<string, unknown>;
    return { body: JSON.stringify({ text: slackText(event, metadata) }), contentType: "application/json" };
  }
  return {
    body: `{"webhook_id":${JSON.stringify(webhookId)},"event":${eventJson(event)}}`,
    contentType: "application/json",
  };
}
