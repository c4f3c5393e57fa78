/**
 * The delivery loop (docs/notifications.md "Delivery"): its own loop in every process, apart from
 * the queue, so that a slow or dead receiver never slows a merge. It claims due deliveries from
 * PostgreSQL (a lease, so processes share the work and one that dies loses nothing), POSTs each
 * one with a timeout, and writes the attempt and the next step (delivered, retry at a later time,
 * failed). At most `concurrency` requests are in flight in a process, and at most
 * `perSubscription` of one webhook, so one receiver's backlog never takes every slot.
 * A database that does not answer is retried every poll, logged at the 1st, 2nd, 4th ... failure.
 */
import type { Logger } from "pino";
import { FailureStreak } from "../outage/index.js";
import {
  claimDeliveries,
  pruneDeliveries,
  recordAttempt,
  releaseDeliveries,
  type ClaimedDelivery,
  type Pool,
} from "../store/index.js";
import { deliveryBody } from "./payload.js";
import { describeFailure, outcomeOf, retryDelayMs } from "./retry-policy.js";
import { signatureOf, SIGNATURE_HEADER } from "./signature.js";

/** Settings of the loop; times in milliseconds. */
export interface DeliveryLoopOptions {
  db: Pool;
  logger: Logger;
  /** The `User-Agent` of every request, e.g. "Yardmaster-Webhooks/0.1.0". */
  userAgent: string;
  /** Requests in flight at once in this process (default 8). */
  concurrency?: number;
  /** Requests in flight at once to one webhook (default 2). */
  perSubscription?: number;
  /** Longest wait for a receiver's answer (default 10 s, as GitHub's). */
  timeoutMs?: number;
  /** The first retry's delay (default 10 s; YARDMASTER_WEBHOOK_RETRY_SECONDS). */
  retryBaseMs?: number;
  /** How often due deliveries are looked for besides kicks (default 1 s). */
  pollMs?: number;
  /** How long a completed delivery stays in the log (default 30 days). */
  retentionMs?: number;
}

/** A running loop: `kick` looks for due deliveries now; `stop` ends it (in-flight requests aborted and given back). */
export interface DeliveryLoop {
  kick(): void;
  stop(): Promise<void>;
}

/** Starts the loop. */
export function startDeliveryLoop(o: DeliveryLoopOptions): DeliveryLoop {
  const concurrency = o.concurrency ?? 8;
  const perSubscription = o.perSubscription ?? 2;
  const timeoutMs = o.timeoutMs ?? 10_000;
  const retryBaseMs = o.retryBaseMs ?? 10_000;
  const pollMs = o.pollMs ?? 1000;
  const retentionMs = o.retentionMs ?? 30 * 86_400_000;
  const log = o.logger.child({ component: "webhooks" });
  /** In-flight requests; `done` resolves true once the attempt was recorded, false when it was aborted. */
  const inFlight = new Map<string, { delivery: ClaimedDelivery; abort: AbortController; done: Promise<boolean> }>();
  const failures = new FailureStreak();
  let stopped = false;
  let claiming: Promise<void> | null = null;
  let again = false;
  let lastPrune = 0;

  const perWebhook = () => {
    const counts = new Map<string, number>();
    for (const { delivery } of inFlight.values())
      counts.set(delivery.subscriptionId, (counts.get(delivery.subscriptionId) ?? 0) + 1);
    return counts;
  };

  async function claimRound(): Promise<void> {
    const free = concurrency - inFlight.size;
    if (stopped || free <= 0) return;
    const counts = perWebhook();
    const busy = [...counts].filter(([, n]) => n >= perSubscription).map(([id]) => id);
    const claimed = await claimDeliveries(o.db, {
      limit: free,
      perSubscription: perSubscription,
      busy,
      leaseMs: timeoutMs + 20_000,
    });
    for (const d of claimed) {
      const abort = new AbortController();
      const entry = { delivery: d, abort, done: Promise.resolve(true) };
      entry.done = send(d, abort.signal)
        .catch((e) => {
          // Its lease runs out and it is sent again (at least once: receivers dedupe by delivery id).
          log.warn({ err: e, delivery: d.id }, "webhook delivery: the attempt could not be recorded");
          return true;
        })
        .finally(() => {
          inFlight.delete(d.id);
          kick();
        });
      inFlight.set(d.id, entry);
    }
    if (Date.now() - lastPrune > 3_600_000) {
      lastPrune = Date.now();
      const pruned = await pruneDeliveries(o.db, retentionMs, 10_000);
      if (pruned > 0) log.debug({ pruned }, "webhook delivery log pruned");
    }
  }

  /** One attempt; resolves true once recorded, false when `stop` aborted it (nothing recorded). */
  async function send(d: ClaimedDelivery, stop: AbortSignal): Promise<boolean> {
    const { body, contentType } = deliveryBody(d.format, d.subscriptionId, d.event);
    const startedAt = new Date();
    const t0 = performance.now();
    let status: number | null = null;
    let error: string | null = null;
    try {
      const res = await fetch(d.url, {
        method: "POST",
        body,
        redirect: "manual",
        signal: AbortSignal.any([stop, AbortSignal.timeout(timeoutMs)]),
        headers: {
          "content-type": contentType,
          "user-agent": o.userAgent,
          "x-yardmaster-delivery": d.id,
          "x-yardmaster-event": d.event.type,
          "x-yardmaster-hook-id": d.subscriptionId,
          "x-yardmaster-attempt": String(d.attempt),
          [SIGNATURE_HEADER]: signatureOf(d.secret, body),
        },
      });
      status = res.status;
      // The answer's body is not read (nor kept: docs/notifications.md "Security").
      await res.body?.cancel().catch(() => {});
      if (status < 200 || status >= 300) error = `status ${status}`;
    } catch (e) {
      if (stop.aborted) return false; // stopping: given back by stop(), sent again later
      error = describeFailure(e, timeoutMs);
    }
    const durationMs = Math.round(performance.now() - t0);
    const outcome = outcomeOf(status, d.attempt);
    await recordAttempt(o.db, {
      deliveryId: d.id,
      attempt: d.attempt,
      startedAt,
      durationMs,
      statusCode: status,
      error,
      redelivery: d.redelivery,
      outcome,
      retryInMs: outcome === "retry" ? retryDelayMs(d.attempt, retryBaseMs) : undefined,
    });
    if (outcome === "failed")
      log.warn(
        { delivery: d.id, webhook: d.subscriptionId, event: d.event.type, attempts: d.attempt, status, error },
        "webhook delivery failed for good",
      );
    return true;
  }

  function kick(): void {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = claimRound()
      .then(() => {
        const ended = failures.succeed();
        if (ended > 0) log.info({ failures: ended }, "webhook deliveries: the database answers again");
      })
      .catch((e) => {
        const { count, log: shouldLog } = failures.fail();
        if (shouldLog) log.warn({ err: e, failures: count }, "webhook deliveries: could not claim; will retry");
      })
      .finally(() => {
        claiming = null;
        if (again && failures.failures === 0) {
          again = false;
          kick();
        }
      });
  }

  const timer = setInterval(kick, pollMs);
  timer.unref();
  kick();

  return {
    kick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (claiming) await claiming;
      const pending = [...inFlight.values()];
      for (const p of pending) p.abort.abort();
      const recorded = await Promise.all(pending.map((p) => p.done));
      const aborted = pending.filter((_, i) => !recorded[i]).map((p) => p.delivery.id);
      await releaseDeliveries(o.db, aborted).catch((e) =>
        log.warn({ err: e }, "webhook deliveries: could not give back the ones in flight"),
      );
    },
  };
}
