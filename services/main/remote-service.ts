/**
 * Split deployment (docs/deployment.md "The operational contract"): a service this process does not run is
 * reached at its URL over Connect. The proxy implements every unary RPC of the service by calling
 * the remote process with the caller's `authorization` header (the remote authenticates and
 * authorizes the caller itself: the same admin key and the same token table in the shared
 * PostgreSQL), hands back its answer or its error (code and message kept), and copies the
 * response headers that the REST surface shows (`Link`, `x-yardmaster-log-lag`). The gateway
 * transcodes REST to the proxy exactly as to a local implementation.
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
 * A remote that cannot be reached answers UNAVAILABLE naming the service and the URL.
 * @throws Error at construction when the service has a streaming RPC (none of Yardmaster's do)
 */
export function remoteServiceImpl(
  service: DescService,
  baseUrl: string,
): Record<string, (req: never, ctx: HandlerContext) => Promise<unknown>> {
  const transport = createConnectTransport({ baseUrl, httpVersion: "2", useBinaryFormat: true });
  const client = createClient(service, transport) as unknown as Record<
    string,
    (req: unknown, options: object) => Promise<unknown>
  >;
  const impl: Record<string, (req: never, ctx: HandlerContext) => Promise<unknown>> = {};
  for (const method of service.methods) {
    // The live streams are not forwarded (UNIMPLEMENTED here): watch on the process that runs
    // the service (docs/api.md "Streams").
    if (method.methodKind === "server_streaming") continue;
    if (method.methodKind !== "unary")
      throw new Error(`${service.typeName}.${method.name} streams: a remote service forwards unary RPCs only`);
    impl[method.localName] = (req, ctx) => forward(client, method, baseUrl, req, ctx);
  }
  return impl;
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
  client: Record<string, (req: unknown, options: object) => Promise<unknown>>,
  method: DescMethod,
  baseUrl: string,
  req: unknown,
  ctx: HandlerContext,
): Promise<unknown> {
  try {
    return await client[method.localName]!(req, {
      headers: copyHeaders(ctx.requestHeader, new Headers(), FORWARDED_REQUEST_HEADERS),
      signal: ctx.signal,
      onHeader: (h: Headers) => void copyHeaders(h, ctx.responseHeader, FORWARDED_RESPONSE_HEADERS),
    });
  } catch (e) {
    const err = ConnectError.from(e);
    // A transport failure (refused connection, reset) is the remote's absence, not the caller's fault.
    if (err.code === Code.Unavailable || (err.code === Code.Unknown && !err.rawMessage)) {
      throw new ConnectError(
        `${method.parent.typeName} at ${baseUrl} is unavailable: ${err.rawMessage || "no answer"}`,
        Code.Unavailable,
      );
    }
    throw err;
  }
}
