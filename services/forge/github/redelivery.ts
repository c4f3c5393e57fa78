/**
 * Redelivery of the App's failed webhook deliveries (docs/github.md "Reconciliation"). "GitHub
 * does not automatically redeliver failed deliveries"; its documented remedy is a script that runs
 * on a schedule, fetches the deliveries attempted since its last run, and redelivers those whose
 * `status` is not "OK"
 * (https://docs.github.com/en/webhooks/using-webhooks/handling-failed-webhook-deliveries,
 * .../automatically-redelivering-failed-deliveries-for-a-github-app-webhook). This is that script:
 *
 * 1. `GET /app/hook/deliveries` (the App's JWT), newest first, 100 a page, until a delivery older
 *    than the previous pass's start (less {@link OVERLAP_MS}; the first pass looks `lookbackMs`
 *    back, default an hour);
 * 2. deliveries are grouped by GUID (every attempt at one event shares it): a GUID with an "OK"
 *    attempt is done; for the others the newest failed attempt is redelivered,
 *    `POST /app/hook/deliveries/{id}/attempts` (https://docs.github.com/en/rest/apps/webhooks);
 * 3. one event is redelivered at most {@link MAX_REDELIVERIES} times by this process: a delivery
 *    Yardmaster keeps refusing (a payload it cannot take) is not sent again for ever.
 *
 * The redelivered event arrives at the webhook route with its original `X-GitHub-Delivery`, which
 * the route takes once (docs/github.md "Webhooks"), so a redelivery that crosses a late first
 * attempt does nothing twice.
 */
import { createGithubAppClient, type GithubAppOptions, type GithubLogger } from "./client.js";
import { toForgeError } from "./errors.js";

/** Overlap between passes, so that a delivery recorded while a pass ran is seen by the next. */
export const OVERLAP_MS = 5 * 60_000;
/** Redeliveries of one event by one process, at most. */
export const MAX_REDELIVERIES = 3;

/** What one pass did. */
export interface RedeliveryReport {
  /** Deliveries listed. */
  listed: number;
  /** Events (GUIDs) with no "OK" attempt. */
  failed: number;
  /** Redeliveries asked. */
  redelivered: number;
}

/** The redelivery of the file header; `pass()` runs it once. */
export interface GithubRedelivery {
  /** @throws ForgeError when GitHub cannot be read (the next pass tries again) */
  pass(): Promise<RedeliveryReport>;
}

interface Delivery {
  id: number;
  guid: string;
  delivered_at: string;
  status: string;
  event: string;
  action: string | null;
}

/**
 * Creates the redelivery for the App of `opts` (its own App client: the deliveries API takes the
 * App's JWT, not an installation token).
 * @throws ForgeError invalid when the app id or private key is malformed
 */
export function createGithubRedelivery(
  opts: GithubAppOptions & { lookbackMs?: number; log?: GithubLogger },
): GithubRedelivery {
  const client = createGithubAppClient(opts);
  const now = opts.now ?? Date.now;
  const attempts = new Map<string, number>();
  let since: number | null = null;

  return {
    async pass() {
      const started = now();
      const from = since ?? started - (opts.lookbackMs ?? 3_600_000);
      const report: RedeliveryReport = { listed: 0, failed: 0, redelivered: 0 };
      const newestFailed = new Map<string, Delivery>();
      const ok = new Set<string>();
      try {
        const pages = client.app.paginate.iterator("GET /app/hook/deliveries", { per_page: 100 });
        listing: for await (const { data } of pages) {
          for (const d of data as Delivery[]) {
            if (Date.parse(d.delivered_at) < from) break listing;
            report.listed++;
            if (d.status === "OK") ok.add(d.guid);
            else if (!newestFailed.has(d.guid)) newestFailed.set(d.guid, d);
          }
        }
        for (const [guid, d] of newestFailed) {
          if (ok.has(guid)) continue;
          report.failed++;
          const done = attempts.get(guid) ?? 0;
          if (done >= MAX_REDELIVERIES) continue;
          await client.app.request("POST /app/hook/deliveries/{delivery_id}/attempts", { delivery_id: d.id });
          attempts.set(guid, done + 1);
          report.redelivered++;
          opts.log?.info(
            { delivery: guid, event: d.event, action: d.action, attempt: done + 1 },
            "redelivering a failed GitHub webhook delivery",
          );
        }
      } catch (e) {
        throw toForgeError(e, "redelivering failed webhook deliveries", now());
      }
      since = started - OVERLAP_MS;
      if (attempts.size > 10_000) attempts.delete(attempts.keys().next().value!);
      return report;
    },
  };
}
