/**
 * The signature of a webhook body (docs/notifications.md "Verifying a delivery"): HMAC-SHA256 of
 * the raw body bytes with the webhook's secret, hex, in the header
 * `X-Yardmaster-Signature-256: sha256=<hex>`, as GitHub signs its webhooks
 * (https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries).
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** The signature header's name (lowercase, as HTTP/2 and fetch write it). */
export const SIGNATURE_HEADER = "x-yardmaster-signature-256";

/** The header value for `body` signed with `secret`: `sha256=` and 64 hex digits. */
export function signatureOf(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/**
 * Whether `header` is the signature of `body` with `secret`, compared in constant time: what a
 * receiver does (shown in docs/notifications.md; the tests' receiver uses it).
 */
export function signatureMatches(secret: string, body: string | Buffer, header: string | undefined): boolean {
  if (header === undefined) return false;
  const expected = Buffer.from(signatureOf(secret, body));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
