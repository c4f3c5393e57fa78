/**
 * `POST /webhooks/github`: GitHub's webhook deliveries (docs/github.md "Webhooks").
 * In its own encapsulated Fastify context, whose only body parsers keep the body as the exact
 * string received (JSON, or the form encoding GitHub also offers), because the signature is an
 * HMAC over those bytes. Answers:
 *
 * | case | status | body `status` |
 * | --- | --- | --- |
 * | `X-Hub-Signature-256` missing or wrong | 403 | (error: unauthenticated) nothing else happens |
 * | no `X-GitHub-Event` / `X-GitHub-Delivery`, body not JSON | 422 | (error: invalid_argument naming it) |
 * | event or action the queue does not follow | 202 | ignored |
 * | payload the mapping cannot read (logged) | 202 | unreadable |
 * | delivery already processed | 200 | duplicate |
 * | events handed to the sink, or a failed workflow run to the job retries | 200 | processed |
 * | a failed workflow run where no job retries are wired | 202 | ignored |
 * | the sink failed (logged; a redelivery is processed) | 500 | (error: internal) |
 *
 * Errors are thrown and answered in the one error body of every route (docs/errors.md).
 *
 * Each event goes to the sink with an idempotency key (`github:<delivery>:<n>`): a delivery whose
 * first processing died part-way, or that two processes receive at once, is handed over again
 * and the queue takes each event once (docs/reliability.md).
 */
import { Webhooks } from "@octokit/webhooks";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { DomainError, invalidField } from "../../contracts/index.js";
import type pg from "pg";
import { claimGithubDelivery, completeGithubDelivery, githubEventKey } from "../../store/index.js";
import type { ForgeEventSink } from "../types.js";
import type { GithubLogger } from "./client.js";
import { mapGithubWebhook, type WebhookMapping } from "./webhook-events.js";
import type { CompletedWorkflowRun } from "./workflow-run.js";

/** The route's path. */
export const GITHUB_WEBHOOK_PATH = "/webhooks/github";
/** GitHub caps a delivery at 25 MB. */
const BODY_LIMIT = 25 * 1024 * 1024;

/** What the webhook route needs. */
export interface GithubWebhookDeps {
  /** The App's webhook secret (GITHUB_WEBHOOK_SECRET). */
  secret: string;
  /** PostgreSQL, migrated (github_deliveries table). */
  pool: pg.Pool;
  /** Receives the mapped events, in order; should return quickly (GitHub waits 10 s at most). */
  sink: ForgeEventSink;
  log: GithubLogger;
  /** The clock (claim times); default `() => new Date()`. */
  now?: () => Date;
  /** The App's id: deliveries about its own check runs are ignored (webhook-events.ts). */
  appId?: number;
  /**
   * CI Insights' job retries (job-retries.ts): each workflow run completed without success. Absent:
   * `workflow_run` deliveries are ignored. Awaited like the sink: a failure answers 500.
   */
  workflowRuns?: (run: CompletedWorkflowRun) => Promise<unknown>;
}

function headerOf(req: FastifyRequest, name: string): string | null {
  const v = req.headers[name];
  return typeof v === "string" && v !== "" ? v : null;
}

/** The JSON text of a delivery: the body itself, or the `payload` field of a form body. */
function payloadText(req: FastifyRequest, raw: string): string | null {
  const type = String(req.headers["content-type"] ?? "");
  if (type.startsWith("application/x-www-form-urlencoded")) return new URLSearchParams(raw).get("payload");
  return raw;
}

/**
 * Adds `POST /webhooks/github` to `app`.
 * @throws Error when the secret is empty (a webhook without a secret would accept anyone)
 */
export async function registerGithubWebhook(app: FastifyInstance, deps: GithubWebhookDeps): Promise<void> {
  if (!deps.secret) throw new Error("GITHUB_WEBHOOK_SECRET: the webhook secret must not be empty");
  const webhooks = new Webhooks({ secret: deps.secret });
  const now = deps.now ?? (() => new Date());

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      ["application/json", "application/x-www-form-urlencoded"],
      { parseAs: "string", bodyLimit: BODY_LIMIT },
      (_req, body, done) => done(null, body),
    );

    scope.post(GITHUB_WEBHOOK_PATH, async (req, reply) => {
      const raw = typeof req.body === "string" ? req.body : "";
      const signature = headerOf(req, "x-hub-signature-256");
      const valid = signature !== null && raw !== "" && (await webhooks.verify(raw, signature).catch(() => false));
      if (!valid) throw new DomainError("unauthenticated", "missing or invalid X-Hub-Signature-256");

      const event = headerOf(req, "x-github-event"),
        delivery = headerOf(req, "x-github-delivery");
      if (!event) throw invalidField("X-GitHub-Event", "header required");
      if (!delivery || delivery.length > 200)
        throw invalidField("X-GitHub-Delivery", "header required (at most 200 characters)");
      let payload: unknown;
      try {
        payload = JSON.parse(payloadText(req, raw) ?? "");
      } catch {
        throw invalidField("body", "not a JSON webhook payload");
      }

      let mapping: WebhookMapping;
      try {
        mapping = mapGithubWebhook(event, payload, { appId: deps.appId });
      } catch (e) {
        deps.log.error({ err: e, event, delivery }, "GitHub webhook payload could not be mapped");
        return reply.code(202).send({ status: "unreadable", delivery });
      }
      if (mapping.kind === "ignored")
        return reply.code(202).send({ status: "ignored", delivery, reason: mapping.reason });
      const runs = deps.workflowRuns;
      if (mapping.kind === "workflow_run" && !runs)
        return reply
          .code(202)
          .send({ status: "ignored", delivery, reason: "job retries do not run here (no CI Insights)" });

      if (!(await claimGithubDelivery(deps.pool, delivery, event, now()))) {
        deps.log.info({ event, delivery }, "GitHub webhook delivery already processed");
        return reply.code(200).send({ status: "duplicate", delivery });
      }
      try {
        if (mapping.kind === "workflow_run") await runs!(mapping.run);
        else for (const [i, e] of mapping.events.entries()) await deps.sink(e, githubEventKey(delivery, i));
      } catch (e) {
        throw new Error(
          `the events of GitHub delivery ${delivery} (${event}) could not be handed over; a redelivery is processed`,
          { cause: e },
        );
      }
      await completeGithubDelivery(deps.pool, delivery, now());
      const events = mapping.kind === "events" ? mapping.events.length : 0;
      return reply.code(200).send({ status: "processed", delivery, events });
    });
  });
}
