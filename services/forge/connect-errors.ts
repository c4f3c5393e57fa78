/**
 * The Connect code of each forge error kind, for services that surface forge failures to API
 * callers (docs/errors.md): not_found 404, conflict 409 (aborted: something moved meanwhile),
 * permission 403, rate_limited 429, transient 503, invalid 422.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { ForgeError, type ForgeErrorKind } from "./types.js";

/** The Connect code of each {@link ForgeErrorKind} (HTTP statuses in the file header and docs/errors.md). */
export const FORGE_ERROR_CODES: Readonly<Record<ForgeErrorKind, Code>> = {
  not_found: Code.NotFound,
  conflict: Code.Aborted,
  permission: Code.PermissionDenied,
  rate_limited: Code.ResourceExhausted,
  transient: Code.Unavailable,
  invalid: Code.InvalidArgument,
};

/** A ForgeError as a ConnectError (the original kept as cause); anything else is returned unchanged. */
export function forgeErrorToConnect(error: unknown): unknown {
  if (!(error instanceof ForgeError)) return error;
  return new ConnectError(error.message, FORGE_ERROR_CODES[error.kind], undefined, undefined, error);
}

/**
 * `impl` with every method's ForgeError turned into its Connect code ({@link forgeErrorToConnect}),
 * for services that read the forge while answering (QueueService, SimulatorService): a forge that
 * is rate-limited or down answers 429 / 503, not 500 (docs/errors.md). Other errors, and every
 * result, pass through unchanged.
 */
export function withForgeErrorsAsConnect<T extends object>(impl: T): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(impl)) {
    wrapped[name] = typeof method !== "function" ? method : async (...args: unknown[]) => {
      try {
        return await method.apply(impl, args);
      } catch (e) {
        throw forgeErrorToConnect(e);
      }
    };
  }
  return wrapped as T;
}
