/**
 * The one REST error body (docs/errors.md, services/gateway/error-body.ts) as a schema, and the
 * error responses operations refer to by status.
 */
import { codeNames } from "../../services/gateway/http-status.js";
import type { JsonSchema } from "./json-schemas.js";

/** The components `Error`, `FieldViolation` and `RequestInfo`. */
export function errorSchemas(): Record<string, JsonSchema> {
  return {
    Error: {
      type: "object",
      description: "The one REST error body (docs/errors.md).",
      required: ["code", "message", "detail", "details"],
      properties: {
        code: { type: "string", enum: codeNames(), description: "The Connect code name." },
        message: { type: "string", description: "One sentence; for invalid arguments it starts with the field path." },
        detail: {
          type: "string",
          description: "The same sentence as `message`: the field Mergify's API and CLI use (docs/errors.md).",
        },
        details: {
          type: "array",
          items: {
            oneOf: [{ $ref: "#/components/schemas/FieldViolation" }, { $ref: "#/components/schemas/RequestInfo" }],
          },
        },
      },
    },
    FieldViolation: {
      type: "object",
      required: ["type", "field", "description"],
      properties: { type: { const: "field_violation" }, field: { type: "string" }, description: { type: "string" } },
    },
    RequestInfo: {
      type: "object",
      required: ["type", "request_id"],
      properties: { type: { const: "request_info" }, request_id: { type: "string" } },
    },
  };
}

const WHEN: Record<string, string> = {
  "400":
    "A URL whose percent-escapes do not decode, or a body shorter or longer than its content-length (invalid_argument).",
  "403":
    "No, malformed, unknown or revoked credentials (unauthenticated), or a credential for another repository (permission_denied).",
  "404":
    "What the path names does not exist (not_found): a repository the forge does not know, a pull request in no merge queue.",
  "409":
    "The hosting platform reported a conflict (aborted): a ref that moved meanwhile, GitHub's answer for an empty repository; or an idempotency key reused for other content (already_exists).",
  "413": "A request body over 4 MiB (resource_exhausted).",
  "415":
    "A body that is not application/json, or is compressed (invalid_argument naming content-type or content-encoding).",
  "422":
    "A bad path, query or body value, an unknown parameter or field, or a refused precondition (invalid_argument, failed_precondition); every violation is listed.",
  "429": "The hosting platform's rate limit (resource_exhausted).",
  "431": "A request line and headers over 16 KiB (resource_exhausted).",
  "500": "An unexpected failure (internal): the message names the request id only; the server log has the cause.",
  "503": "A database, the forge or a service of a split deployment does not answer (unavailable); see Retry-After.",
};

/** components.responses: one per error status, each the error body. */
export function errorResponses(): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const [status, description] of Object.entries(WHEN)) {
    out[status] = {
      description,
      headers: {
        "x-request-id": { $ref: "#/components/headers/x-request-id" },
        ...(status === "503" ? { "retry-after": { $ref: "#/components/headers/retry-after" } } : {}),
      },
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  }
  return out;
}
