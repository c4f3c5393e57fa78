/**
 * The errors of the forge port (types.ts): adapters throw only {@link ForgeError} (a closed set of
 * kinds, each answered with one refusal, docs/errors.md) and its {@link MergeRefusedError}.
 */
import type { DomainErrorKind } from "../contracts/index.js";

/** Errors of the port. Adapters throw only these; `kind` is a closed set. */
export type ForgeErrorKind = "not_found" | "conflict" | "permission" | "rate_limited" | "transient" | "invalid";

/**
 * The refusal each {@link ForgeErrorKind} is answered with when it reaches an API caller
 * (docs/errors.md): not_found 404, conflict 409 (aborted: something moved meanwhile), permission
 * 403, rate_limited 429, transient 503, invalid 422.
 */
export const FORGE_ERROR_KINDS: Readonly<Record<ForgeErrorKind, DomainErrorKind>> = {
  not_found: "not_found",
  conflict: "aborted",
  permission: "permission_denied",
  rate_limited: "resource_exhausted",
  transient: "unavailable",
  invalid: "invalid_argument",
};

/**
 * The only error a {@link ForgePort} method throws: a {@link ForgeErrorKind}, a message, and for
 * rate_limited the delay before retrying (milliseconds).
 */
export class ForgeError extends Error {
  override readonly name = "ForgeError";
  /** The refusal this error is answered with (contracts/domain-error.ts; docs/errors.md). */
  get errorKind(): DomainErrorKind {
    return FORGE_ERROR_KINDS[this.kind];
  }
  /**
   * @param kind what went wrong (conflict = git conflict, or the ref moved)
   * @param message a sentence for logs and users
   * @param retryAfterMs for rate_limited: when to try again, in milliseconds
   */
  constructor(
    readonly kind: ForgeErrorKind,
    message: string,
    readonly retryAfterMs?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Whether `e` is a {@link ForgeError}, of `kind` when one is given. */
export function isForgeError(e: unknown, kind?: ForgeErrorKind): e is ForgeError {
  return e instanceof ForgeError && (kind === undefined || e.kind === kind);
}

/**
 * Why a platform refused a merge when the code itself merges (docs/github.md "Landing a batch"):
 * head_moved, a pull request's head is no longer the one checked; protection, the branch's
 * protection, its rules or the repository's merge settings forbid what was asked; stale_check,
 * the platform accepts only a check built on the base's current tip (GitHub's "require branches to
 * be up to date before merging" without a bypass), so the batch must be checked again.
 */
export type MergeRefusal = "head_moved" | "protection" | "stale_check";

/**
 * A refused merge ({@link MergeRefusal}), with the platform's message and the pull request it
 * concerns (null: the whole batch). Its kind is permission for protection, conflict otherwise.
 */
export class MergeRefusedError extends ForgeError {
  /**
   * @param refusal why
   * @param message a sentence for logs and users, with the platform's own message
   * @param pullRequest the pull request refused, null when the refusal is the batch's
   */
  constructor(
    readonly refusal: MergeRefusal,
    message: string,
    readonly pullRequest: number | null,
    options?: { cause?: unknown },
  ) {
    super(refusal === "protection" ? "permission" : "conflict", message, undefined, options);
  }
}
