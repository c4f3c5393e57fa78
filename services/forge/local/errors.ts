/**
 * Errors of the local forge's own actions. They are {@link ForgeError}s (the port's closed set of
 * kinds), optionally naming the request field at fault and the RPC status that fits better than
 * the kind alone (a repository that exists is ALREADY_EXISTS, a closed pull request
 * FAILED_PRECONDITION), which the gateway answers (contracts/domain-error.ts; docs/local-forge.md "CLI").
 */
import type { DomainErrorKind } from "../../contracts/index.js";
import { ForgeError, type ForgeErrorKind } from "../types.js";

/** A finer status than the kind, for the RPC answer. */
export type RpcHint = "already_exists" | "failed_precondition" | "aborted";

/** A ForgeError with an optional field name and RPC hint. */
export class LocalForgeError extends ForgeError {
  /**
   * @param kind the port's kind
   * @param message a sentence naming what is wrong
   * @param detail.field the request field at fault (snake_case, as in forge.proto)
   * @param detail.rpc the RPC status to answer instead of the kind's
   */
  constructor(
    kind: ForgeErrorKind,
    message: string,
    readonly detail: { field?: string; rpc?: RpcHint } = {},
    options?: { cause?: unknown },
  ) {
    super(kind, message, undefined, options);
  }

  /** The RPC hint when given, else the kind's refusal (docs/local-forge.md "CLI"). */
  override get errorKind(): DomainErrorKind {
    return this.detail.rpc ?? super.errorKind;
  }

  /** The field at fault, for an invalid request (a field violation). */
  get errorField(): string | undefined {
    return this.kind === "invalid" && this.detail.rpc === undefined ? this.detail.field : undefined;
  }
}

/**
 * Adds a field name to a ForgeError of kind invalid or not_found raised while handling that field
 * (e.g. a branch name git refuses); other errors pass unchanged.
 */
export function blameField(error: unknown, field: string): unknown {
  if (error instanceof LocalForgeError || !(error instanceof ForgeError)) return error;
  if (error.kind !== "invalid" && error.kind !== "not_found") return error;
  return new LocalForgeError(error.kind, error.message, { field }, { cause: error.cause ?? error });
}

/** Runs `fn`, naming `field` in an invalid or not_found ForgeError it throws. */
export async function withField<T>(field: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw blameField(error, field);
  }
}
