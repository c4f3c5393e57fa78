/**
 * The refusals a service raises, in the error model's words (docs/errors.md): a handler says what
 * went wrong (`not_found`, `failed_precondition`, ...) and {@link domainErrorToConnect}, the one
 * mapping, gives it the Connect code of that kind, which the gateway answers with the same status
 * on every protocol. No handler picks a protocol status itself.
 *
 * Two ways to raise one: throw a {@link DomainError}, or give an error class of one's own an
 * `errorKind` property (and optionally `errorField`, the request field at fault): the engine's and
 * the forge's errors do so, since those folders depend on no other.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { invalidField } from "./violation.js";

/** The kinds of refusal, named as the Connect codes they are answered with (docs/errors.md table). */
export const DOMAIN_ERROR_KINDS = [
  "invalid_argument",
  "not_found",
  "already_exists",
  "permission_denied",
  "unauthenticated",
  "failed_precondition",
  "aborted",
  "resource_exhausted",
  "unavailable",
] as const;

/** One of {@link DOMAIN_ERROR_KINDS}. */
export type DomainErrorKind = (typeof DOMAIN_ERROR_KINDS)[number];

const KINDS: ReadonlySet<string> = new Set(DOMAIN_ERROR_KINDS);

/** A refusal raised by a service: its kind, a sentence for the caller, and the field at fault if any. */
export class DomainError extends Error {
  override readonly name = "DomainError";
  /**
   * @param errorKind what went wrong, in the error model's words
   * @param message one sentence the caller reads (never a library's text)
   * @param options.field the request field at fault (snake_case, as in the protos)
   */
  constructor(
    readonly errorKind: DomainErrorKind,
    message: string,
    options?: { cause?: unknown; field?: string },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.errorField = options?.field;
  }
  readonly errorField: string | undefined;
}

/** A refusal as {@link domainErrorOf} reads it. */
export interface DomainRefusal {
  kind: DomainErrorKind;
  message: string;
  field: string | undefined;
  /** When the caller may try again, seconds (`Retry-After`), for a refusal that says so. */
  retryAfterSeconds: number | undefined;
}

/**
 * The refusal `e` stands for: a {@link DomainError}, or any Error whose `errorKind` is one of
 * {@link DOMAIN_ERROR_KINDS} (and whose `retryAfterSeconds`, a positive number, says when to try
 * again); null for anything else (an unexpected failure).
 */
export function domainErrorOf(e: unknown): DomainRefusal | null {
  if (!(e instanceof Error)) return null;
  const { errorKind, errorField, retryAfterSeconds } = e as {
    errorKind?: unknown;
    errorField?: unknown;
    retryAfterSeconds?: unknown;
  };
  if (typeof errorKind !== "string" || !KINDS.has(errorKind)) return null;
  return {
    kind: errorKind as DomainErrorKind,
    message: e.message,
    field: typeof errorField === "string" ? errorField : undefined,
    retryAfterSeconds:
      typeof retryAfterSeconds === "number" && retryAfterSeconds > 0 ? Math.ceil(retryAfterSeconds) : undefined,
  };
}

/** The metadata key (and REST header) of a refusal's retry time, seconds (RFC 9110 §10.2.3). */
const RETRY_AFTER = "retry-after";

/** The Connect code of each kind (REST statuses: docs/errors.md). */
const CODES: Readonly<Record<DomainErrorKind, Code>> = {
  invalid_argument: Code.InvalidArgument,
  not_found: Code.NotFound,
  already_exists: Code.AlreadyExists,
  permission_denied: Code.PermissionDenied,
  unauthenticated: Code.Unauthenticated,
  failed_precondition: Code.FailedPrecondition,
  aborted: Code.Aborted,
  resource_exhausted: Code.ResourceExhausted,
  unavailable: Code.Unavailable,
};

/**
 * The ConnectError a refusal is answered with (its message kept, `e` as the cause; an
 * invalid_argument naming a field carries that field violation; a retry time becomes
 * `retry-after` metadata, the REST `Retry-After` header), or null when `e` is no refusal.
 */
export function domainErrorToConnect(e: unknown): ConnectError | null {
  const refusal = domainErrorOf(e);
  if (refusal === null) return null;
  if (refusal.kind === "invalid_argument" && refusal.field !== undefined)
    return invalidField(refusal.field, refusal.message);
  const metadata =
    refusal.retryAfterSeconds === undefined ? undefined : { [RETRY_AFTER]: String(refusal.retryAfterSeconds) };
  return new ConnectError(refusal.message, CODES[refusal.kind], metadata, undefined, e);
}
