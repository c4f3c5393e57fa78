/**
 * Split deployment (docs/deployment.md "The operational contract"): a service this process does not run is
 * reached at its URL over Connect. The proxy implements every RPC of the service by calling the
 * remote process with the caller's `authorization` header (the remote authenticates and
 * authorizes the caller itself: the same admin key and the same token table in the shared
 * PostgreSQL), hands back its answer or its error (code and message kept), and copies the
 * response headers that the REST surface shows (`Link`, `x-yardmaster-log-lag`). A live stream
 * (WatchMergeQueue, WatchLogs) is relayed message by message and ends when either side does: the
 * caller's disconnect cancels the remote call. The gateway transcodes REST (and server-sent
 * events) to the proxy exactly as to a local implementation.
 */
import type { DescMethod, DescService } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type HandlerContext } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { LOG_LAG_HEADER } from "../activity-log/index.js";

/** Response headers carried back from the remote service: `Link`, and the activity log's lag. */
const FORWARDED_RESPONSE_HEADERS = ["link", LOG_LAG_HEADER];

/** Request headers carried to the remote service. */
const FORWARDED_REQUEST_HEADERS = ["authorization", "x-request-id"];

/**
 * An implementation of `service` whose RPCs run in the Yardmaster process at `baseUrl`
 * (e.g. `http://log.internal:8080`), over Connect with the binary codec on HTTP/2.
 * A remote that cannot be reached answers UNAVAILABLE naming the service and the URL, also when a
 * relayed stream loses it midway.
 * @throws Error at construction when the service has a client or bidirectional streaming RPC
 *   (none of Yardmaster's do)
 */
export function remoteServiceImpl(
  service: DescService,
  baseUrl: string,
): Record<string, (req: never, ctx: HandlerContext) => unknown> {
  const transport = createConnectTransport({ baseUrl, httpVersion: "2", useBinaryFormat: true });
  const client = createClient(service, transport) as unknown as RemoteClient;
  const impl: Record<string, (req: never, ctx: HandlerContext) => unknown> = {};
  for (const method of service.methods) {
    if (method.methodKind === "server_streaming") {
      impl[method.localName] = (req, ctx) => relay(client, method, baseUrl, req, ctx);
      continue;
    }
    if (method.methodKind !== "unary")
      throw new Error(`${service.typeName}.${method.name} streams: a remote service forwards unary RPCs only`);
    impl[method.localName] = (req, ctx) => forward(client, method, baseUrl, req, ctx);
  }
  return impl;
}

/** The Connect client of a remote service, by method name: a promise (unary) or messages (streams). */
type RemoteClient = Record<string, (req: unknown, options: object) => Promise<unknown> | AsyncIterable<unknown>>;

/** The call options of a forwarded call: the caller's headers, its cancellation, the answer's headers. */
function callOptions(ctx: HandlerContext): object {
  return {
    headers: copyHeaders(ctx.requestHeader, new Headers(), FORWARDED_REQUEST_HEADERS),
    signal: ctx.signal,
    onHeader: (h: Headers) => void copyHeaders(h, ctx.responseHeader, FORWARDED_RESPONSE_HEADERS),
  };
}

/** The caller's error for a remote's failure: its own error, or UNAVAILABLE when it could not be reached. */
function remoteError(method: DescMethod, baseUrl: string, e: unknown): ConnectError {
  const err = ConnectError.from(e);
  // A transport failure (refused connection, reset) is the remote's absence, not the caller's fault.
  if (err.code === Code.Unavailable || (err.code === Code.Unknown && !err.rawMessage)) {
    return new ConnectError(
      `${method.parent.typeName} at ${baseUrl} is unavailable: ${err.rawMessage || "no answer"}`,
      Code.Unavailable,
    );
  }
  return err;
}

/** Relays a server stream of the remote: each message as it comes, then its end or its error. */
async function* relay(
  client: RemoteClient,
  method: DescMethod,
  baseUrl: string,
  req: unknown,
  ctx: HandlerContext,
): AsyncGenerator<unknown> {
  try {
    yield* client[method.localName]!(req, callOptions(ctx)) as AsyncIterable<unknown>;
  } catch (e) {
    // The caller went away: nothing to answer (the remote call was cancelled with it).
    if (ctx.signal.aborted) return;
    throw remoteError(method, baseUrl, e);
  }
}

/** Copies the headers of `names` present in `from` into `to`; returns `to`. */
function copyHeaders(from: Headers, to: Headers, names: readonly string[]): Headers {
  for (const name of names) {
    const value = from.get(name);
    if (value !== null) to.set(name, value);
  }
  return to;
}

async function forward(
  client: RemoteClient,
  method: DescMethod,
  baseUrl: string,
  req: unknown,
  ctx: HandlerContext,
): Promise<unknown> {
  try {
    return await client[method.localName]!(req, callOptions(ctx));
  } catch (e) {
    throw remoteError(method, baseUrl, e);
  }
}
