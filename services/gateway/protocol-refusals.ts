/**
 * Connect's own refusals, made before any handler runs, answer with a status and no body: 415
 * for a content type no protocol of the method speaks, 405 for a method (GET on an RPC that is
 * not GET-able), 505 for a streaming RPC over HTTP/1.1 (server reflection). This wrapper gives
 * them the one error body (docs/errors.md), with a request id also sent as `x-request-id`; every
 * other response passes through unchanged.
 */
import { randomUUID } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import type { UniversalHandler, UniversalServerResponse } from "@connectrpc/connect/protocol";
import { invalidField } from "../contracts/index.js";
import { restError } from "./error-body.js";
import { once } from "./unparsable-request.js";

/** The error of each bodyless status. */
const REFUSALS: Record<number, () => ConnectError> = {
  415: () =>
    invalidField(
      "content-type",
      "is not one of this method's protocols (Connect: application/json or application/proto; gRPC: application/grpc; gRPC-Web: application/grpc-web)",
    ),
  405: () =>
    new ConnectError("this RPC is called with POST (GET only for RPCs marked side-effect free)", Code.Unimplemented),
  505: () => new ConnectError("this streaming RPC needs HTTP/2", Code.Unimplemented),
};

/** `handler` with its bodyless refusals answered with the one error body (same path, methods, protocols). */
export function withRefusalBodies(handler: UniversalHandler): UniversalHandler {
  const wrapped = async (req: Parameters<UniversalHandler>[0]) => withBody(await handler(req));
  return Object.assign(wrapped, {
    protocolNames: handler.protocolNames,
    service: handler.service,
    method: handler.method,
    requestPath: handler.requestPath,
    allowedMethods: handler.allowedMethods,
    supportedContentType: handler.supportedContentType,
  });
}

function withBody(res: UniversalServerResponse): UniversalServerResponse {
  const refusal = REFUSALS[res.status];
  if (refusal === undefined || res.body !== undefined) return res;
  const requestId = randomUUID();
  const body = Buffer.from(JSON.stringify(restError(refusal(), requestId).body));
  const header = new Headers(res.header);
  header.set("content-type", "application/json; charset=utf-8");
  header.set("content-length", String(body.byteLength));
  header.set("x-request-id", requestId);
  return { ...res, header, body: once(body) };
}
