/**
 * The one REST error body (docs/errors.md):
 *     {"code": "not_found", "message": "...", "detail": "...", "details": [...]}
 * `detail` repeats `message`: it is the field Mergify's API answers errors with, which Mergify's
 * CLI prints (docs/mergify-cli.md "Errors").
 * `details` holds `{"type": "field_violation", "field", "description"}` items for invalid
 * arguments and `{"type": "request_info", "request_id"}` on every error, so a report can be
 * matched with the server log. An unexpected failure never shows its text: the client sees
 * "internal error" and the request id; the log has the cause. A database that does not answer
 * (outage/database-unavailable.ts) is `unavailable` (REST 503, gRPC 14) with `Retry-After`
 * (docs/errors.md "Outages").
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type { Logger } from "pino";
import { domainErrorToConnect, violationsOf } from "../contracts/index.js";
import { isPoolBusy } from "../offload/index.js";
import { RETRY_AFTER_SECONDS, unavailableDatabase } from "../outage/index.js";
import { codeName, restStatus } from "./http-status.js";

/**
 * The JSON body of every REST error (docs/errors.md): `code` is the Connect code name
 * (`not_found`), `message` one sentence, `detail` the same sentence (the field Mergify's CLI
 * prints), `details` the field_violation and request_info items.
 */
export interface ErrorBody {
  code: string;
  message: string;
  detail: string;
  details: Record<string, unknown>[];
}

/** The response header (and Connect error metadata) telling a client when to retry, seconds (RFC 9110 §10.2.3). */
export const RETRY_AFTER = "retry-after";

/**
 * Turns anything thrown by a handler into a ConnectError fit for clients (docs/errors.md):
 * - a failure because a database does not answer (its cause chain classified by
 *   outage/database-unavailable.ts: a refused or dropped connection, a read past its deadline)
 *   becomes UNAVAILABLE naming the database, with `retry-after` metadata; the library's text stays
 *   in `cause`, for the log;
 * - a refusal a service raised (contracts/domain-error.ts: a DomainError, the engine's and the
 *   forge's errors) becomes the ConnectError of its kind, keeping its message;
 * - another UNAVAILABLE ConnectError (a remote service, the forge) keeps its message and gets
 *   `retry-after` metadata when it has none;
 * - other ConnectErrors pass unchanged, except INTERNAL ones (their text may be a library's or
 *   another process's): those and anything else become INTERNAL with a generic message naming the
 *   request id (the original is `cause`, for the log).
 */
export function publicError(e: unknown, requestId: string): ConnectError {
  const inspected = !(e instanceof ConnectError) || [Code.Internal, Code.Unknown, Code.Unavailable].includes(e.code);
  const database = inspected ? unavailableDatabase(e) : null;
  if (database !== null) {
    const name = database === "unknown" ? "a database" : database;
    const message = `${name} does not answer; retry in ${RETRY_AFTER_SECONDS} s (request id ${requestId})`;
    return new ConnectError(message, Code.Unavailable, { [RETRY_AFTER]: String(RETRY_AFTER_SECONDS) }, undefined, e);
  }
  const refusal = e instanceof ConnectError ? null : domainErrorToConnect(e);
  if (refusal !== null) return publicError(refusal, requestId);
  if (e instanceof ConnectError && e.code === Code.Unavailable) {
    if (!e.metadata.has(RETRY_AFTER)) e.metadata.set(RETRY_AFTER, String(RETRY_AFTER_SECONDS));
    return e;
  }
  if (e instanceof ConnectError && e.code !== Code.Internal) return e;
  return new ConnectError(`internal error (request id ${requestId})`, Code.Internal, undefined, undefined, e);
}

/**
 * Status, headers and body of a REST error response: `Retry-After` (seconds) for UNAVAILABLE,
 * from the error's metadata or {@link RETRY_AFTER_SECONDS}, and for any other error whose metadata
 * has one (a busy worker pool's 429, docs/errors.md).
 */
export function restError(
  e: ConnectError,
  requestId: string,
): { status: number; headers: Record<string, string>; body: ErrorBody } {
  const details: Record<string, unknown>[] = [];
  for (const v of violationsOf(e))
    details.push({ type: "field_violation", field: v.field, description: v.description });
  details.push({ type: "request_info", request_id: requestId });
  const headers: Record<string, string> = {};
  const retryAfter = e.metadata.get(RETRY_AFTER);
  if (e.code === Code.Unavailable) headers[RETRY_AFTER] = retryAfter ?? String(RETRY_AFTER_SECONDS);
  else if (retryAfter !== null) headers[RETRY_AFTER] = retryAfter;
  return {
    status: restStatus(e.code),
    headers,
    body: { code: codeName(e.code), message: e.rawMessage, detail: e.rawMessage, details },
  };
}

/**
 * Logs a failed request with its cause: an INTERNAL answer as an error, an UNAVAILABLE one made
 * from a database outage as a warning (every request fails the same way until it returns).
 * @param answered the error answered ({@link publicError}'s result); `original` what was thrown
 */
export function logFailure(
  logger: Logger,
  answered: ConnectError,
  original: unknown,
  fields: Record<string, unknown>,
): void {
  if (answered.code === Code.Internal) logger.error({ err: original, ...fields }, "request failed");
  // A busy worker pool's 503 is the load's answer, not a fault: not logged (docs/reliability.md "Tenants").
  else if (answered.code === Code.Unavailable && answered !== original && !isPoolBusy(original)) {
    logger.warn({ err: original, ...fields }, "request failed: a database does not answer");
  }
}
