/**
 * A request whose protobuf binary body cannot be parsed, or whose compressed body does not
 * decompress, is the caller's mistake, so it answers `invalid_argument`, never `internal`
 * (docs/errors.md "Unparsable request messages"; the same rule connect-go follows, and the one
 * Connect-ES already applies to a JSON body). Connect-ES reads the message before any interceptor
 * runs and reports these failures as `internal` (`parse binary: …`, `decompression failed`); this
 * wrapper rewrites that one status in the response of each protocol:
 * - Connect unary: HTTP 500 with the JSON error body → HTTP 400 with `invalid_argument`;
 * - gRPC: the `grpc-status` 13 trailer (or trailers-only header) → 3;
 * - gRPC-Web: the same status inside the trailer frame at the end of the body.
 * Every other response passes through unchanged, byte for byte. The request of a server-streaming
 * call is read inside the call: the guard interceptor classifies its failure the same way
 * ({@link unreadableAsInvalidArgument}).
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type { UniversalHandler, UniversalServerResponse } from "@connectrpc/connect/protocol";

/**
 * The messages Connect-ES gives, as `internal`, to a request it cannot read: a binary parse
 * failure (protocol/serialization.js), a compressed body that does not decompress
 * (connect-node compression.js, for errors other than zlib's data error), a gRPC message flagged
 * compressed without a `grpc-encoding` (protocol/envelope.js).
 */
const UNREADABLE = [
  "parse binary: ",
  "decompression failed",
  "received compressed envelope, but do not know how to decompress",
];
const isUnreadable = (message: string) => UNREADABLE.some((prefix) => message.startsWith(prefix));

/**
 * `e` as the caller's mistake when it is Connect-ES's INTERNAL failure to read a request message
 * (see UNREADABLE): INVALID_ARGUMENT with the same text; anything else unchanged. For the request
 * of a server-streaming call, which is read inside the call (interceptors.ts) where the response
 * rewrite below cannot tell it from a handler's failure.
 */
export function unreadableAsInvalidArgument(e: unknown): unknown {
  if (e instanceof ConnectError && e.code === Code.Internal && isUnreadable(e.rawMessage))
    return new ConnectError(e.rawMessage, Code.InvalidArgument, undefined, undefined, e);
  return e;
}
const GRPC_INTERNAL = "13";
const GRPC_INVALID_ARGUMENT = "3";
/** The flag byte of a gRPC-Web trailer frame. */
const TRAILER_FRAME = 0x80;

/** `handler` with its binary parse failures answered as invalid_argument (same path, methods, protocols). */
export function withUnparsableRequestAsInvalidArgument(handler: UniversalHandler): UniversalHandler {
  const wrapped = async (req: Parameters<UniversalHandler>[0]) => rewrite(await handler(req));
  return Object.assign(wrapped, {
    protocolNames: handler.protocolNames,
    service: handler.service,
    method: handler.method,
    requestPath: handler.requestPath,
    allowedMethods: handler.allowedMethods,
    supportedContentType: handler.supportedContentType,
  });
}

async function rewrite(res: UniversalServerResponse): Promise<UniversalServerResponse> {
  const type = res.header?.get("content-type") ?? "";
  if (type.startsWith("application/grpc-web")) return { ...res, body: res.body && rewriteTrailerFrames(res.body) };
  if (type.startsWith("application/grpc")) {
    fixGrpcStatus(res.header);
    fixGrpcStatus(res.trailer);
    return { ...res, body: res.body && afterBody(res.body, () => fixGrpcStatus(res.trailer)) };
  }
  if (res.status === 500 && type.startsWith("application/json") && !res.header?.has("content-encoding") && res.body)
    return rewriteConnectError(res, res.body);
  return res;
}

/** Connect unary: the JSON error body of a parse failure becomes a 400 invalid_argument. */
async function rewriteConnectError(
  res: UniversalServerResponse,
  body: AsyncIterable<Uint8Array>,
): Promise<UniversalServerResponse> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  const bytes = Buffer.concat(chunks);
  let error: { code?: unknown; message?: unknown } | null = null;
  try {
    error = JSON.parse(bytes.toString("utf8"));
  } catch {
    /* not an error body we know: unchanged */
  }
  if (error?.code !== "internal" || typeof error.message !== "string" || !isUnreadable(error.message))
    return { ...res, body: once(bytes) };
  const rewritten = Buffer.from(JSON.stringify({ ...error, code: "invalid_argument" }));
  const header = new Headers(res.header);
  header.set("content-length", String(rewritten.byteLength));
  return { ...res, status: 400, header, body: once(rewritten) };
}

/** gRPC: status 13 with a parse failure message becomes 3 (in place: the adapter writes these headers later). */
function fixGrpcStatus(headers: Headers | undefined): void {
  if (headers?.get("grpc-status") === GRPC_INTERNAL && isParseFailure(headers.get("grpc-message")))
    headers.set("grpc-status", GRPC_INVALID_ARGUMENT);
}

function isParseFailure(grpcMessage: string | null): boolean {
  if (grpcMessage === null) return false;
  try {
    return isUnreadable(decodeURIComponent(grpcMessage));
  } catch {
    return false;
  }
}

/** gRPC-Web: a chunk that is one whole trailer frame is rewritten; any other chunk passes through. */
async function* rewriteTrailerFrames(body: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  for await (const chunk of body) {
    if (
      chunk.byteLength < 5 ||
      chunk[0] !== TRAILER_FRAME ||
      Buffer.from(chunk.buffer, chunk.byteOffset + 1, 4).readUInt32BE(0) !== chunk.byteLength - 5
    ) {
      yield chunk;
      continue;
    }
    const lines = Buffer.from(chunk.buffer, chunk.byteOffset + 5, chunk.byteLength - 5)
      .toString("latin1")
      .split("\r\n");
    const trailer = new Headers(
      lines
        .filter((l) => l.includes(":"))
        .map((l) => [l.slice(0, l.indexOf(":")).trim(), l.slice(l.indexOf(":") + 1).trim()] as [string, string]),
    );
    if (trailer.get("grpc-status") !== GRPC_INTERNAL || !isParseFailure(trailer.get("grpc-message"))) {
      yield chunk;
      continue;
    }
    const text = Buffer.from(
      lines.map((l) => (/^grpc-status\s*:/i.test(l) ? `grpc-status: ${GRPC_INVALID_ARGUMENT}` : l)).join("\r\n"),
      "latin1",
    );
    const frame = Buffer.alloc(5 + text.byteLength);
    frame[0] = TRAILER_FRAME;
    frame.writeUInt32BE(text.byteLength, 1);
    text.copy(frame, 5);
    yield frame;
  }
}

async function* afterBody(body: AsyncIterable<Uint8Array>, done: () => void): AsyncIterable<Uint8Array> {
  yield* body;
  done();
}

/** A response body of one chunk. */
export async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}
