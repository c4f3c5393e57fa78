/**
 * The GitHub App's webhook in the test double: deliveries sent to a target (the webhook route of
 * the code under test), the deliveries log of the App, lost deliveries, and the App's delivery
 * API.
 *
 * - A delivery is a POST with `X-GitHub-Event`, `X-GitHub-Delivery` (its GUID, shared by every
 *   attempt at it), `X-Hub-Signature-256` (HMAC-SHA256 of the body with the webhook secret) and a
 *   JSON body (https://docs.github.com/en/webhooks/webhook-events-and-payloads "Delivery headers").
 * - A delivery the target does not answer 2xx, or that never reaches it (a dropped one: the double's
 *   way to lose a webhook), is recorded as failed, and "GitHub does not automatically redeliver
 *   failed deliveries" (https://docs.github.com/en/webhooks/using-webhooks/handling-failed-webhook-deliveries).
 * - `GET /app/hook/deliveries` lists the App's deliveries, newest first, a page of `per_page`
 *   (default 30) with a `cursor` in the `Link` header's next page; `status=success|failure` filters
 *   by `status_code` (200-399 / 400-599); `GET /app/hook/deliveries/{id}` gives one with its request
 *   and response; `POST /app/hook/deliveries/{id}/attempts` answers 202 and delivers the same
 *   event again as a new delivery with `redelivery: true` and the same GUID
 *   (https://docs.github.com/en/rest/apps/webhooks). Each needs the App's JWT.
 *
 * Deliveries are sent one at a time in the order emitted, after the request that caused them;
 * {@link DoubleWebhooks.settled} waits until every queued one was sent.
 */
import { createHmac, randomUUID } from "node:crypto";
import { DOCS, notFound, type Answer, type Handler, type HandlerContext } from "./double-answers.js";

/** One delivery as the target receives it. */
export interface WebhookRequest {
  event: string;
  guid: string;
  /** The exact body (JSON text). */
  body: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
}

/** Where deliveries go: answers the HTTP status the receiver gave (throwing: it could not be reached). */
export type WebhookTarget = (delivery: WebhookRequest) => Promise<number>;

/** A delivery in the App's log (GitHub's `hook-delivery` shape, with what it sent). */
export interface DeliveryRecord {
  id: number;
  guid: string;
  deliveredAt: Date;
  redelivery: boolean;
  status: string;
  statusCode: number;
  event: string;
  action: string | null;
  installationId: number | null;
  repositoryId: number | null;
  request: WebhookRequest;
  dropped: boolean;
}

/** Decides whether a first attempt is lost (never reaches the target); redeliveries always go through. */
export type DropRule = (event: string, payload: Record<string, unknown>) => boolean;

/** A pseudo-random source from a seed (mulberry32): the same seed drops the same deliveries. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, "Z");

export class DoubleWebhooks {
  /** The App's deliveries, oldest first. */
  readonly deliveries: DeliveryRecord[] = [];
  private target: WebhookTarget | null = null;
  private secret = "";
  private readonly drops: { rule: DropRule; left: number }[] = [];
  private readonly listeners: ((event: string, payload: Record<string, unknown>) => void)[] = [];
  private queue: Promise<void> = Promise.resolve();
  private pending = 0;
  private nextId = 1;

  constructor(private readonly now: () => Date) {}

  /** Whether deliveries are being made (a target is set): the double then observes its state for events. */
  get enabled(): boolean {
    return this.target !== null;
  }

  /** Sends every later event to `target`, signed with `secret`; null stops deliveries. */
  deliverTo(target: WebhookTarget | null, secret = ""): void {
    this.target = target;
    this.secret = secret;
  }

  /**
   * Loses the next `times` first attempts that `rule` selects (default: any): they fail as
   * "failed to connect" and never reach the target.
   */
  drop(rule: DropRule = () => true, times = 1): void {
    this.drops.push({ rule, left: times });
  }

  /**
   * Loses each first attempt with probability `rate` (0 to 1), drawn from `seed`, for the rest of
   * the test (or until {@link stopDropping}): a webhook dropped at random.
   */
  dropRandomly(rate: number, seed: number, rule: DropRule = () => true): void {
    const random = seededRandom(seed);
    this.drops.push({ rule: (e, p) => rule(e, p) && random() < rate, left: Number.POSITIVE_INFINITY });
  }

  /** Ends every drop rule. */
  stopDropping(): void {
    this.drops.length = 0;
  }

  /** Forgets the deliveries log (a test starting with a fresh App). */
  clear(): void {
    this.deliveries.length = 0;
  }

  /** Deliveries that failed (dropped or answered outside 2xx). */
  failed(): DeliveryRecord[] {
    return this.deliveries.filter((d) => d.status !== "OK");
  }

  /** Resolves once every delivery queued so far has been sent (or lost). */
  async settled(): Promise<void> {
    while (this.pending > 0) await this.queue;
  }

  /**
   * Calls `listener` with every event GitHub would send, delivered or lost: what other GitHub
   * Apps (a CI) see, whatever happens to this App's deliveries. @returns what stops the calls
   */
  onEvent(listener: (event: string, payload: Record<string, unknown>) => void): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /** Queues a delivery of `event` (a first attempt). */
  emit(event: string, payload: Record<string, unknown>): void {
    if (!this.target) return;
    for (const listener of this.listeners) listener(event, payload);
    const guid = randomUUID();
    const body = JSON.stringify(payload);
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "user-agent": "GitHub-Hookshot/double",
      "x-github-event": event,
      "x-github-delivery": guid,
      "x-github-hook-installation-target-type": "integration",
      "x-hub-signature-256": `sha256=${createHmac("sha256", this.secret).update(body).digest("hex")}`,
    };
    const dropped = this.takeDrop(event, payload);
    this.send({ event, guid, body, headers }, payload, false, dropped);
  }

  private takeDrop(event: string, payload: Record<string, unknown>): boolean {
    for (const d of this.drops) {
      if (d.left > 0 && d.rule(event, payload)) {
        d.left--;
        return true;
      }
    }
    return false;
  }

  private send(request: WebhookRequest, payload: Record<string, unknown>, redelivery: boolean, dropped: boolean) {
    const target = this.target;
    this.pending++;
    this.queue = this.queue.then(async () => {
      let statusCode = 502;
      let status = "failed to connect";
      if (!dropped && target) {
        try {
          statusCode = await target(request);
          status = statusCode >= 200 && statusCode < 300 ? "OK" : `Invalid HTTP Response: ${statusCode}`;
        } catch {
          status = "failed to connect";
        }
      }
      const installation = payload.installation as { id?: number } | undefined;
      const repository = payload.repository as { id?: number } | undefined;
      this.deliveries.push({
        id: this.nextId++,
        guid: request.guid,
        deliveredAt: this.now(),
        redelivery,
        status,
        statusCode,
        event: request.event,
        action: typeof payload.action === "string" ? payload.action : null,
        installationId: installation?.id ?? null,
        repositoryId: repository?.id ?? null,
        request,
        dropped,
      });
      this.pending--;
    });
  }

  /** The delivery API's item shape. */
  private item(d: DeliveryRecord) {
    return {
      id: d.id,
      guid: d.guid,
      delivered_at: iso(d.deliveredAt),
      redelivery: d.redelivery,
      duration: 0.01,
      status: d.status,
      status_code: d.statusCode,
      event: d.event,
      action: d.action,
      installation_id: d.installationId,
      repository_id: d.repositoryId,
      throttled_at: null,
    };
  }

  /** `GET /app/hook/deliveries`: newest first, `per_page`, `cursor` (the id to continue below), `status`. */
  list(ctx: HandlerContext): Answer {
    const per = Math.min(100, Number(ctx.query.get("per_page") ?? 30));
    const cursor = ctx.query.get("cursor");
    const status = ctx.query.get("status");
    const all = [...this.deliveries]
      .reverse()
      .filter((d) => cursor === null || d.id < Number(cursor))
      .filter((d) =>
        status === "success"
          ? d.statusCode >= 200 && d.statusCode < 400
          : status === "failure"
            ? d.statusCode >= 400
            : true,
      );
    const shown = all.slice(0, per);
    const headers: Record<string, string> = {};
    if (all.length > per) {
      const next = new URLSearchParams(ctx.query);
      next.set("cursor", String(shown.at(-1)!.id));
      headers.link = `<https://api.github.com/app/hook/deliveries?${next}>; rel="next"`;
    }
    return { status: 200, headers, body: shown.map((d) => this.item(d)) };
  }

  /** `GET /app/hook/deliveries/{delivery_id}`. */
  get(ctx: HandlerContext): Answer {
    const d = this.deliveries.find((x) => String(x.id) === ctx.params.delivery_id);
    if (!d) return notFound();
    return {
      status: 200,
      body: {
        ...this.item(d),
        url: "https://yardmaster.test/webhooks/github",
        request: { headers: d.request.headers, payload: JSON.parse(d.request.body) },
        response: { headers: {}, payload: null },
      },
    };
  }

  /** `POST /app/hook/deliveries/{delivery_id}/attempts`: 202, then the same event delivered again. */
  redeliver(ctx: HandlerContext): Answer {
    const d = this.deliveries.find((x) => String(x.id) === ctx.params.delivery_id);
    if (!d) return notFound();
    if (!this.target) return { status: 422, body: { message: "the App has no webhook URL", documentation_url: DOCS } };
    this.send(d.request, JSON.parse(d.request.body), true, false);
    return { status: 202, body: {} };
  }
}

/** The delivery API's operations (authenticated with the App's JWT: github-double.ts). */
export const deliveryHandlers: Record<string, Handler> = {
  "apps/list-webhook-deliveries": (ctx) => ctx.double.webhooks.list(ctx),
  "apps/get-webhook-delivery": (ctx) => ctx.double.webhooks.get(ctx),
  "apps/redeliver-webhook-delivery": (ctx) => ctx.double.webhooks.redeliver(ctx),
};
