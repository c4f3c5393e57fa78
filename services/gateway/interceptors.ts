/**
 * Connect interceptors for the Connect, gRPC and gRPC-Web protocols: the same authentication,
 * authorization, FieldRule validation and error hygiene as the REST transcoder (auth.ts,
 * contracts/), so every protocol reaches the implementations under the same rules. The reflection
 * service is exempt from authentication (reflection.ts).
 */
import type { Message } from "@bufbuild/protobuf";
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import type { Logger } from "pino";
import { randomUUID } from "node:crypto";
import { checkMessageRules, throwIfViolations } from "../contracts/index.js";
import { ServerReflection } from "../../gen/grpc/reflection/v1/reflection_pb.js";
import { ServerReflection as ServerReflectionV1Alpha } from "../../gen/grpc/reflection/v1alpha/reflection_pb.js";
import { principalKey, type Authorizer } from "../auth/index.js";
import { logFailure, publicError } from "./error-body.js";
import type { RequestTurns } from "./request-turns.js";
import { unreadableAsInvalidArgument } from "./unparsable-request.js";

const OPEN_SERVICES = new Set([ServerReflection.typeName, ServerReflectionV1Alpha.typeName]);

/**
 * The one message of a server-streaming call's request stream.
 * @throws ConnectError INVALID_ARGUMENT when there is none, or it cannot be read (a frame flagged
 *   compressed without an encoding, a binary message that does not parse: unparsable-request.ts)
 */
async function onlyMessage<T>(stream: AsyncIterable<T>): Promise<T> {
  try {
    for await (const m of stream) return m;
  } catch (e) {
    throw unreadableAsInvalidArgument(e);
  }
  throw new ConnectError("the request has no message", Code.InvalidArgument);
}

/** A stream of `message` alone. */
async function* once<T>(message: T): AsyncIterable<T> {
  yield message;
}

/** The messages of `stream`; a failure is answered as publicError makes it, and logged. */
async function* guardedStream<T>(stream: AsyncIterable<T>, requestId: string, rpc: string, logger: Logger) {
  try {
    yield* stream;
  } catch (e) {
    const err = publicError(e, requestId);
    logFailure(logger, err, e, { requestId, rpc });
    throw err;
  }
}

/**
 * Authenticates, validates and authorizes unary and server-streaming calls (client and bidi
 * streams are refused); hides unexpected errors behind a request
 * id and answers a database outage as UNAVAILABLE (error-body.ts publicError). With `turns`, a
 * call waits for a turn before the implementation and before its answer goes back
 * (request-turns.ts).
 */
export function createGuardInterceptor(authorizer: Authorizer, logger: Logger, turns?: RequestTurns): Interceptor {
  return (next) => async (req) => {
    if (OPEN_SERVICES.has(req.service.typeName)) return next(req);
    const requestId = randomUUID();
    try {
      const principal = await authorizer.authenticate(req.header.get("authorization"));
      req.contextValues.set(principalKey, principal);
      // A server-streaming call reaches interceptors as a stream of its one request message.
      let message: Message;
      if (!req.stream) message = req.message;
      else if (req.method.methodKind === "server_streaming") message = await onlyMessage(req.message);
      else throw new ConnectError("client-streaming calls are not served", Code.Unimplemented);
      throwIfViolations(checkMessageRules(req.method.input, message));
      await authorizer.authorize(principal, req.method, message as Record<string, unknown>);
      await turns?.turn();
      const res = await next(req.stream ? { ...req, message: once(message) } : req);
      await turns?.turn();
      // A stream's later failure gets the same hygiene as a unary call's.
      if (res.stream) return { ...res, message: guardedStream(res.message, requestId, req.method.name, logger) };
      return res;
    } catch (e) {
      // A ConnectError is the caller's answer, except an INTERNAL one: its text may be a library's
      // (docs/errors.md: none reaches a client), so it is logged and hidden like any failure; a
      // database that does not answer is UNAVAILABLE with retry-after (error-body.ts).
      const err = publicError(e, requestId);
      logFailure(logger, err, e, { requestId, rpc: req.method.name });
      // Connect serializes the code, message, details and metadata, never the cause.
      throw err;
    }
  };
}
