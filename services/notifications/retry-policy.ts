/**
 * What an attempt's answer means and when the next one is due (docs/notifications.md
 * "Retries"): a 2xx answer delivers; a 5xx, 408, 429 or no answer at all (refused, reset, timed
 * out) is retried with exponential backoff — `base` × 2^(attempt − 1), capped at one hour, ±20%
 * jitter so that receivers coming back are not hit by every delivery at the same instant — up to
 * {@link MAX_ATTEMPTS} attempts (about 3.4 hours with a 10 s base); any other answer (a redirect,
 * 4xx: the receiver refused this delivery) fails it at once, until someone redelivers it.
 * Stripe and Svix retry this way; GitHub does not retry at all
 * (https://docs.github.com/en/webhooks/using-webhooks/handling-failed-webhook-deliveries).
 */

/** Most attempts of one delivery (a redelivery past it gets one more attempt each time). */
export const MAX_ATTEMPTS = 12;
/** Longest wait between two attempts, ms. */
export const MAX_RETRY_DELAY_MS = 3_600_000;

/** What to do after an attempt. */
export type AttemptOutcome = "delivered" | "retry" | "failed";

/** The outcome of attempt number `attempt` that got HTTP `status` (null: no answer). */
export function outcomeOf(status: number | null, attempt: number): AttemptOutcome {
  if (status !== null && status >= 200 && status < 300) return "delivered";
  const retriable = status === null || status >= 500 || status === 408 || status === 429;
  return retriable && attempt < MAX_ATTEMPTS ? "retry" : "failed";
}

/**
 * Milliseconds to wait after failed attempt number `attempt` (1 for the first), from `baseMs`;
 * `random` in [0, 1) gives the jitter (Math.random; fixed in tests).
 */
export function retryDelayMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const plain = Math.min(MAX_RETRY_DELAY_MS, baseMs * 2 ** Math.min(attempt - 1, 30));
  return Math.round(plain * (0.8 + 0.4 * random()));
}

/** A failed request in words, for the delivery log: "timed out after 10 s", "connection refused", ... */
export function describeFailure(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; code?: string; cause?: { code?: string; message?: string }; message?: string };
  if (e?.name === "TimeoutError") return `timed out after ${timeoutMs / 1000} s`;
  const code = e?.cause?.code ?? e?.code;
  const words: Record<string, string> = {
    ECONNREFUSED: "connection refused",
    ECONNRESET: "connection reset",
    ENOTFOUND: "host not found",
    EAI_AGAIN: "host name lookup failed",
    EHOSTUNREACH: "host unreachable",
    ENETUNREACH: "network unreachable",
    UND_ERR_SOCKET: "connection closed by the receiver",
    UND_ERR_HEADERS_TIMEOUT: `timed out after ${timeoutMs / 1000} s`,
  };
  if (code && words[code]) return words[code];
  return (e?.cause?.message ?? e?.message ?? String(error)).slice(0, 200);
}
