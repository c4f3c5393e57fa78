/**
 * Every error Fastify 5 can raise for a request (its lib/errors.js: those with a 4xx status) has
 * an answer in the one error body (services/gateway/fastify-errors.ts): a 4xx, a Connect code
 * other than internal, and a message of ours, never Fastify's `FST_ERR_…` text. The errors a
 * test can send are sent for real in http-refusals.test.ts; this covers the rest of the list.
 */
import { createRequire } from "node:module";
import { Code } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { answerFastifyError } from "../../services/gateway/fastify-errors.js";

type FastifyErrorClass = new (...args: string[]) => Error & { code: string; statusCode?: number };
const errors = createRequire(import.meta.url)("fastify/lib/errors.js") as Record<string, FastifyErrorClass>;
const requestErrors = Object.values(errors)
  .filter((E) => typeof E === "function")
  .flatMap((E) => {
    try {
      return [new E("a", "b", "c")];
    } catch {
      return []; // not an error class (helpers of the module)
    }
  })
  .filter((e) => e.statusCode !== undefined && e.statusCode >= 400 && e.statusCode < 500);

describe("Fastify's request errors", () => {
  it("are the ones the mapping was written for", () => {
    expect(requestErrors.map((e) => e.code).sort()).toEqual([
      "FST_ERR_BAD_URL",
      "FST_ERR_CTP_BODY_TOO_LARGE",
      "FST_ERR_CTP_EMPTY_JSON_BODY",
      "FST_ERR_CTP_INSTANCE_ALREADY_STARTED",
      "FST_ERR_CTP_INVALID_CONTENT_LENGTH",
      "FST_ERR_CTP_INVALID_JSON_BODY",
      "FST_ERR_CTP_INVALID_MEDIA_TYPE",
      "FST_ERR_INVALID_URL",
      "FST_ERR_MAX_PARAM_LENGTH",
      "FST_ERR_NOT_FOUND",
      "FST_ERR_ROUTE_MISSING_CONTENT",
      "FST_ERR_ROUTE_MISSING_CONTENT_TYPE",
      "FST_ERR_VALIDATION",
    ]);
  });

  it.each(requestErrors.map((e) => [e.code, e] as const))("%s answers a 4xx in the one error body", (_, err) => {
    const { error, status } = answerFastifyError(err, "application/xml", "rest");
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
    expect(error.code).not.toBe(Code.Internal);
    expect(error.rawMessage).not.toMatch(/FST_|a b c/);
  });

  it("names content-length for a body that does not match it", () => {
    const { error, status } = answerFastifyError(
      requestErrors.find((e) => e.code === "FST_ERR_CTP_INVALID_CONTENT_LENGTH")!,
      undefined,
      "any-protocol",
    );
    expect([status, error.rawMessage]).toEqual([400, "content-length: does not match the size of the body sent"]);
  });
});
