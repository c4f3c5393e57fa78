/**
 * The fault fuzzer's check of an error answer (fuzz.test.ts): the error body of docs/errors.md,
 * a Connect code among those Connect defines, a message, and for a 422 the field it names.
 */

/** The error codes of the Connect protocol (https://connectrpc.com/docs/protocol#error-codes). */
export const CONNECT_CODES = [
  "canceled",
  "unknown",
  "invalid_argument",
  "deadline_exceeded",
  "not_found",
  "already_exists",
  "permission_denied",
  "resource_exhausted",
  "failed_precondition",
  "aborted",
  "out_of_range",
  "unimplemented",
  "internal",
  "unavailable",
  "data_loss",
  "unauthenticated",
];
/** The error body of docs/errors.md, checked for one answer; returns a description of what is wrong, or null. */
export function errorBodyProblem(status: number, text: string): string | null {
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return `a ${status} whose body is not JSON: ${text.slice(0, 200)}`;
  }
  if (!CONNECT_CODES.includes(body?.code)) return `a ${status} without a Connect code: ${text.slice(0, 200)}`;
  if (typeof body.message !== "string" || body.message === "")
    return `a ${status} without a message: ${text.slice(0, 200)}`;
  if (status === 422 && body.code === "invalid_argument") {
    const fields: string[] = (body.details ?? [])
      .filter((d: any) => d.type === "field_violation")
      .map((d: any) => d.field);
    if (!fields.some((f) => body.message.startsWith(`${f}: `)))
      return `a 422 whose message names none of its fields ${JSON.stringify(fields)}: ${body.message}`;
  }
  return null;
}
