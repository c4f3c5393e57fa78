/**
 * The one REST error body (DESIGN.md §4, docs/errors.md):
 *     {"code": "not_found", "message": "...", "details": [...]}
 * `details` holds `{"type": "field_violation", "field", "description"}` items for invalid
 * arguments and `{"type": "request_info", "request_id"}` on every error, so a report can be
 * matched with the server log. An unexpected failure never shows its text: the client sees
 * "internal error" and the request id; the log has the cause.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { violationsOf } from "../contracts/index.js";
import { codeName, restStatus } from "./http-status.js";

/**
 * The JSON body of every REST error (docs/errors.md): `code` is the Connect code name
 * (`not_found`), `message` one sentence, `details` the field_violation and request_info items.
 */
export interface ErrorBody {
  code: string;
  message: string;
  details: Record<string, unknown>[];
}

/**
 * Turns anything thrown by a handler into a ConnectError fit for clients: ConnectErrors pass
 * unchanged, except INTERNAL ones (their text may be a library's or another process's); those and
 * anything else become INTERNAL with a generic message naming the request id (the original is
 * `cause`, for the log). docs/errors.md.
 */
export function publicError(e: unknown, requestId: string): ConnectError {
  if (e instanceof ConnectError && e.code !== Code.Internal) return e;
  return new ConnectError(`internal error (request id ${requestId})`, Code.Internal, undefined, undefined, e);
}

/** Status and body of a REST error response. */
export function restError(e: ConnectError, requestId: string): { status: number; body: ErrorBody } {
  const details: Record<string, unknown>[] = [];
  for (const v of violationsOf(e)) details.push({ type: "field_violation", field: v.field, description: v.description });
  details.push({ type: "request_info", request_id: requestId });
  return { status: restStatus(e.code), body: { code: codeName(e.code), message: e.rawMessage, details } };
}
