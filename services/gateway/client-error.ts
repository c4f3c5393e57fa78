/**
 * Answers the HTTP/1.1 requests Node's parser refuses before any route sees them (a request line
 * and headers over 16 KiB, a malformed request, a request that timed out) with the one REST error
 * body (docs/errors.md), instead of Node's bare status line:
 * - 431 `resource_exhausted` for headers (the URL included) over the limit,
 * - 408 `deadline_exceeded` for a request that did not arrive in time,
 * - 400 `invalid_argument` for anything else the parser cannot read.
 * The connection is closed after the answer, as Node's own handler does.
 */
import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { Socket } from "node:net";
import { Code, ConnectError } from "@connectrpc/connect";
import { restError } from "./error-body.js";

/** [status, reason phrase, code, message] for a parser error code of Node's http module. */
function describe(errorCode: string | undefined): [number, string, Code, string] {
  if (errorCode === "HPE_HEADER_OVERFLOW") {
    return [
      431,
      "Request Header Fields Too Large",
      Code.ResourceExhausted,
      "the request line and headers exceed 16 KiB: send fewer or shorter query parameters",
    ];
  }
  if (errorCode === "ERR_HTTP_REQUEST_TIMEOUT")
    return [408, "Request Timeout", Code.DeadlineExceeded, "the request did not arrive in time"];
  return [400, "Bad Request", Code.InvalidArgument, "the request is not valid HTTP/1.1"];
}

/** Installs the handler on the HTTP/1.1 server (the answer carries a fresh request id; nothing is logged). */
export function answerClientErrors(server: Server): void {
  server.on("clientError", (err: Error & { code?: string }, socket: Socket) => {
    if (err.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
    const requestId = randomUUID();
    const [status, reason, code, message] = describe(err.code);
    const body = JSON.stringify(restError(new ConnectError(message, code), requestId).body);
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
