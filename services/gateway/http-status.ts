/**
 * The one table from Connect codes to REST statuses and error code names (docs/errors.md).
 * GitHub-style 422 for invalid_argument and failed_precondition; 403 for both unauthenticated and
 * permission_denied, so a caller learns nothing about whether a repository exists.
 */
import { Code } from "@connectrpc/connect";

/** [HTTP status, code name] per Connect code, indexed by the code's number. */
const TABLE: Record<Code, [number, string]> = {
  [Code.Canceled]: [499, "canceled"],
  [Code.Unknown]: [500, "unknown"],
  [Code.InvalidArgument]: [422, "invalid_argument"],
  [Code.DeadlineExceeded]: [504, "deadline_exceeded"],
  [Code.NotFound]: [404, "not_found"],
  [Code.AlreadyExists]: [409, "already_exists"],
  [Code.PermissionDenied]: [403, "permission_denied"],
  [Code.ResourceExhausted]: [429, "resource_exhausted"],
  [Code.FailedPrecondition]: [422, "failed_precondition"],
  [Code.Aborted]: [409, "aborted"],
  [Code.OutOfRange]: [422, "out_of_range"],
  [Code.Unimplemented]: [501, "unimplemented"],
  [Code.Internal]: [500, "internal"],
  [Code.Unavailable]: [503, "unavailable"],
  [Code.DataLoss]: [500, "data_loss"],
  [Code.Unauthenticated]: [403, "unauthenticated"],
};

/** The REST status of a Connect code. */
export function restStatus(code: Code): number {
  return TABLE[code]?.[0] ?? 500;
}

/** The snake_case name of a Connect code ("not_found"), as in the Connect protocol. */
export function codeName(code: Code): string {
  return TABLE[code]?.[1] ?? "unknown";
}

/** Every code name a REST error body's `code` may carry, in Connect code order (the OpenAPI document's enum). */
export function codeNames(): string[] {
  return Object.values(TABLE).map(([, name]) => name);
}
