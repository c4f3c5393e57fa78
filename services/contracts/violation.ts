/**
 * Field violations: what is wrong with one field of a request or an event, named by its path.
 * Every INVALID_ARGUMENT of the service is built here, so REST, Connect and gRPC clients all get a
 * message that starts with the field path ("pr_number: must be ..."); Connect and gRPC clients get
 * the list as a `google.rpc.BadRequest` error detail, REST clients in the error body's `details`
 * (docs/errors.md).
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { BadRequestSchema } from "../../gen/google/rpc/bad_request_pb.js";

/** One problem with one field. `field` is a path: "per_page", "events[2].metadata.queue_name". */
export interface FieldViolation {
  field: string;
  description: string;
}

/**
 * Error carrying field violations; becomes INVALID_ARGUMENT (REST 422). Its `name` stays
 * "ConnectError": ConnectError's `instanceof` recognises errors by name, and a renamed subclass
 * would be taken for an unexpected error. Test for it with {@link isInvalidArgumentError}.
 */
export class InvalidArgumentError extends ConnectError {
  constructor(readonly violations: FieldViolation[]) {
    const first = violations[0];
    const more = violations.length > 1 ? ` (and ${violations.length - 1} more)` : "";
    super(`${first.field}: ${first.description}${more}`, Code.InvalidArgument, undefined, [
      {
        desc: BadRequestSchema,
        value: { fieldViolations: violations.map((v) => ({ field: v.field, description: v.description })) },
      },
    ]);
  }
}

/** Whether an error carries field violations. */
export function isInvalidArgumentError(e: unknown): e is InvalidArgumentError {
  return e instanceof ConnectError && Array.isArray((e as Partial<InvalidArgumentError>).violations);
}

/**
 * The field violations of an error: those of an {@link InvalidArgumentError} raised here, or the
 * `google.rpc.BadRequest` details of an INVALID_ARGUMENT received from another Yardmaster process
 * (split deployment). Empty for any other error.
 */
export function violationsOf(e: ConnectError): FieldViolation[] {
  if (isInvalidArgumentError(e)) return e.violations;
  if (e.code !== Code.InvalidArgument) return [];
  return e
    .findDetails(BadRequestSchema)
    .flatMap((d) => d.fieldViolations.map((v) => ({ field: v.field, description: v.description })));
}

/** Throws {@link InvalidArgumentError} when the list is not empty. */
export function throwIfViolations(violations: FieldViolation[]): void {
  if (violations.length > 0) throw new InvalidArgumentError(violations);
}

/** A single-field INVALID_ARGUMENT. */
export function invalidField(field: string, description: string): InvalidArgumentError {
  return new InvalidArgumentError([{ field, description }]);
}

/** Joins a parent path and a key or index: ("events", 2) -> "events[2]", ("a", "b") -> "a.b". */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === "number") return `${parent}[${key}]`;
  return parent ? `${parent}.${key}` : key;
}
