/**
 * Fastify's own refusals, answered with the one error body (docs/errors.md) instead of Fastify's
 * `{"statusCode", "code": "FST_ERR_…", "error", "message"}`: every error code of Fastify 5 that a
 * request can cause (its lib/errors.js), each with the status Fastify chose, a Connect code and a
 * message of ours naming the header, the URL or the body. Used by the REST scope's error handler,
 * the root one (Connect, gRPC and gRPC-Web paths, unknown paths) and `frameworkErrors` (URLs the
 * router cannot decode).
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { invalidField } from "../contracts/index.js";

/** A Fastify error as its handlers receive it. */
export interface FastifyErrorLike {
  code?: string;
  statusCode?: number;
  message: string;
}

/** The answer to a Fastify error: the error for the body, and the HTTP status. */
export interface FastifyErrorAnswer {
  error: ConnectError;
  status: number;
}

/** What a body's media type must be where the error happened: REST routes take JSON only. */
export type MediaScope = "rest" | "any-protocol";

function mediaTypeError(contentType: string | undefined, scope: MediaScope): ConnectError {
  if (contentType === undefined || contentType.trim() === "") {
    return invalidField(
      "content-type",
      scope === "rest" ? "is required with a request body: send application/json" : "is required with a request body",
    );
  }
  const expected =
    scope === "rest"
      ? "send the body as application/json"
      : "send application/json, or a Connect, gRPC or gRPC-Web content type";
  return invalidField("content-type", `"${contentType}" is not supported: ${expected}`);
}

/**
 * The answer to one of Fastify's errors (see the module comment). An error that is not one a
 * request can cause (a status of 500 or none) is internal: its text is logged, never answered.
 */
export function answerFastifyError(
  err: FastifyErrorLike,
  contentType: string | undefined,
  scope: MediaScope,
): FastifyErrorAnswer {
  const status = err.statusCode ?? 500;
  switch (err.code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return { error: mediaTypeError(contentType, scope), status: 415 };
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return {
        error: new ConnectError(
          contentType !== undefined && !/json/i.test(contentType)
            ? 'request body too large: larger than this route\'s upload limit (docs/api.md "Uploads")'
            : "request body too large: a request body is at most 4 MiB",
          Code.ResourceExhausted,
        ),
        status: 413,
      };
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return { error: invalidField("content-length", "does not match the size of the body sent"), status: 400 };
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return {
        error: invalidField(
          "body",
          "is empty, but content-type says application/json: send a JSON value, or no content-type",
        ),
        status: 422,
      };
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return { error: invalidField("body", "is not valid JSON"), status: 422 };
    case "FST_ERR_BAD_URL":
    case "FST_ERR_INVALID_URL":
      return {
        error: invalidField("path", "is not a valid URL: a percent-escape (%XX) does not decode to UTF-8"),
        status: 400,
      };
    case "FST_ERR_MAX_PARAM_LENGTH":
      return { error: new ConnectError("a path segment is too long", Code.ResourceExhausted), status: 414 };
    case "FST_ERR_NOT_FOUND":
      return { error: new ConnectError("no route for this path", Code.NotFound), status: 404 };
  }
  if (status === 413)
    return {
      error: new ConnectError("request body too large: a request body is at most 4 MiB", Code.ResourceExhausted),
      status,
    };
  if (status === 415) return { error: mediaTypeError(contentType, scope), status };
  if (status >= 400 && status < 500)
    return { error: new ConnectError("the request cannot be read", Code.InvalidArgument), status };
  return { error: new ConnectError("internal error", Code.Internal, undefined, undefined, err), status: 500 };
}
