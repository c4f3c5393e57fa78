/**
 * WebhookService (proto/yardmaster/v1/webhooks.proto, docs/notifications.md): a repository's
 * webhooks and their delivery log, behind the same authorization as every repository route
 * (the admin key or a token of the repository; the gateway checks it before this runs). An id
 * that belongs to another repository is NOT_FOUND, as an unknown one is.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { WebhookFormat, type WebhookService } from "../../gen/yardmaster/v1/webhooks_pb.js";
import { canonicalEventType, EVENT_TYPES } from "../activity-log/index.js";
import { principalKey } from "../auth/index.js";
import { DomainError, InvalidArgumentError, type FieldViolation } from "../contracts/index.js";
import {
  deleteWebhook,
  insertWebhook,
  listDeliveries,
  listWebhooks,
  MAX_WEBHOOKS_PER_REPOSITORY,
  redeliver,
  type DeliveryRow,
  type Pool,
  type WebhookRow,
} from "../store/index.js";

/** What the service needs: the API's PostgreSQL pool, and a kick of the delivery loop (a redelivery is due now). */
export interface WebhookServiceDeps {
  db: Pool;
  deliveriesDue?: () => void;
}

const repositoryOf = (r: { owner: string; repository: string }) => `${r.owner}/${r.repository}`.toLowerCase();

/**
 * The canonical form of an event type pattern: `*`, a known type (aliases resolved), or
 * `prefix.*` where at least one type starts with `prefix.`; undefined for anything else.
 */
export function eventPattern(p: string): string | undefined {
  if (p === "*") return p;
  if (p.endsWith(".*")) {
    const prefix = p.slice(0, -1);
    return [...EVENT_TYPES.keys()].some((t) => t.startsWith(prefix)) ? p : undefined;
  }
  return canonicalEventType(p);
}

/** The checked fields of a creation, or the list of what is wrong. */
function checkCreation(req: { url: string; eventTypes: string[]; secret: string }): {
  violations: FieldViolation[];
  patterns: string[];
} {
  const violations: FieldViolation[] = [];
  let url: URL | undefined;
  try {
    url = new URL(req.url);
  } catch {
    violations.push({ field: "url", description: "must be an absolute URL, such as https://example.com/hooks" });
  }
  if (url && url.protocol !== "http:" && url.protocol !== "https:")
    violations.push({ field: "url", description: `must be http:// or https://, not ${url.protocol}//` });
  if (req.eventTypes.length === 0)
    violations.push({ field: "event_types", description: "must name at least one event type, `prefix.*` or `*`" });
  const patterns: string[] = [];
  req.eventTypes.forEach((t, i) => {
    const p = eventPattern(t);
    if (p === undefined)
      violations.push({
        field: `event_types[${i}]`,
        description: `"${t}" is not an event type of the activity log (docs/events.md), a \`prefix.*\` matching some, or \`*\``,
      });
    else patterns.push(p);
  });
  if (req.secret !== "" && !/^[\x21-\x7e]{16,200}$/.test(req.secret))
    violations.push({ field: "secret", description: "must be 16-200 printable characters without spaces" });
  return { violations, patterns: [...new Set(patterns)] };
}

const webhookMessage = (w: WebhookRow) => ({
  id: w.id,
  repository: w.repository,
  url: w.url,
  format: w.format === "slack" ? WebhookFormat.slack : WebhookFormat.json,
  eventTypes: w.eventTypes,
  description: w.description,
  createdAt: timestampFromDate(w.createdAt),
});

const deliveryMessage = (d: DeliveryRow) => ({
  id: d.id,
  webhookId: d.subscriptionId,
  eventId: BigInt(d.eventId),
  eventType: d.eventType,
  pullRequest: d.pullRequest === null ? undefined : BigInt(d.pullRequest),
  state: d.state,
  createdAt: timestampFromDate(d.createdAt),
  nextAttemptAt: d.nextAttemptAt ? timestampFromDate(d.nextAttemptAt) : undefined,
  attempts: d.attempts.map((a) => ({
    attempt: a.attempt,
    startedAt: timestampFromDate(a.startedAt),
    durationMs: a.durationMs,
    statusCode: a.statusCode ?? undefined,
    error: a.error ?? undefined,
    redelivery: a.redelivery,
  })),
});

const notFound = (what: string, id: string, repository: string) =>
  new DomainError("not_found", `${what} ${id} was not found in ${repository}`);

/** Builds the WebhookService implementation. */
export function createWebhookService(deps: WebhookServiceDeps): ServiceImpl<typeof WebhookService> {
  return {
    async createWebhook(req, ctx: HandlerContext) {
      const { violations, patterns } = checkCreation(req);
      if (violations.length) throw new InvalidArgumentError(violations);
      const repository = repositoryOf(req);
      const secret = req.secret || `whsec_${randomBytes(32).toString("base64url")}`;
      const created = await insertWebhook(deps.db, {
        id: randomUUID(),
        repository,
        url: req.url,
        format: req.format === WebhookFormat.slack ? "slack" : "json",
        eventTypes: patterns,
        description: req.description,
        secret,
        createdBy: ctx.values.get(principalKey)?.actor ?? null,
      });
      if (created === null)
        throw new DomainError(
          "failed_precondition",
          `${repository} already has ${MAX_WEBHOOKS_PER_REPOSITORY} webhooks, the most a repository may have: remove one first`,
        );
      return { webhook: webhookMessage(created), secret };
    },
    async listWebhooks(req) {
      return { webhooks: (await listWebhooks(deps.db, repositoryOf(req))).map(webhookMessage) };
    },
    async deleteWebhook(req) {
      const repository = repositoryOf(req);
      const deleted = await deleteWebhook(deps.db, repository, req.id);
      if (deleted === null) throw notFound("webhook", req.id, repository);
      return { webhook: webhookMessage(deleted) };
    },
    async listWebhookDeliveries(req) {
      const rows = await listDeliveries(deps.db, repositoryOf(req), {
        subscriptionId: req.webhookId,
        limit: req.perPage ?? 30,
      });
      return { deliveries: rows.map(deliveryMessage) };
    },
    async redeliverWebhookDelivery(req) {
      const repository = repositoryOf(req);
      const row = await redeliver(deps.db, repository, req.id);
      if (row === null) throw notFound("webhook delivery", req.id, repository);
      deps.deliveriesDue?.();
      return { delivery: deliveryMessage(row) };
    },
  };
}
