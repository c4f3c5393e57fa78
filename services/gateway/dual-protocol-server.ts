/**
 * One cleartext port for HTTP/1.1 and HTTP/2 (h2c with prior knowledge), chosen by the first
 * bytes of each connection: the HTTP/2 preface starts with "PRI". Node 20 ignores `allowHTTP1`
 * without TLS (docs/architecture.md "One port for every protocol"), hence the sniffing. REST, Connect, gRPC and
 * gRPC-Web all reach the same Fastify handler. `close()` stops accepting, closes idle HTTP/1.1
 * connections and HTTP/2 sessions, so shutdown does not wait for keep-alive timeouts.
 *
 * An idle HTTP/1.1 connection is kept open {@link KEEP_ALIVE_TIMEOUT_MS} (Fastify's own default,
 * which Fastify does not apply to a `serverFactory`'s server): with Node's 5 s, a client that
 * reused a connection idle for about 4 s (undici's margin under the advertised `Keep-Alive:
 * timeout=5`) could see it closed under its request, and read "other side closed" instead of the
 * answer (a refused upload's 413 included), whenever this process's timers ran before it read
 * the new request.
 */
import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import { answerClientErrors } from "./client-error.js";

/**
 * How long an idle HTTP/1.1 keep-alive connection stays open, milliseconds: Fastify's default
 * (<https://fastify.dev/docs/latest/Reference/Server/#keepalivetimeout>), longer than the idle
 * timeouts of common load balancers (60 s), so that the client or the proxy, not this server,
 * closes an idle connection.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 72_000;

// biome-ignore lint/suspicious/noExplicitAny: Node passes HTTP/1.1 or HTTP/2 request and response objects here
type Handler = (req: any, res: any) => void;

/**
 * A Fastify `serverFactory` serving HTTP/1.1 and h2c on one listening socket.
 * @param options Fastify's options: their `keepAliveTimeout` (ms) when set, else {@link KEEP_ALIVE_TIMEOUT_MS}
 */
export function dualProtocolServerFactory(
  handler: Handler,
  options?: { keepAliveTimeout?: number },
): http2.Http2Server {
  const h1 = http.createServer(handler);
  h1.keepAliveTimeout = options?.keepAliveTimeout ?? KEEP_ALIVE_TIMEOUT_MS;
  // Requests the parser refuses (headers over 16 KiB, malformed) get the REST error body.
  answerClientErrors(h1);
  // Starts Node's connection tracking (timeouts, closeIdleConnections) although h1 never listens.
  h1.emit("listening");
  const h2 = http2.createServer({}, handler);
  const sessions = new Set<http2.ServerHttp2Session>();
  h2.on("session", (s) => {
    sessions.add(s);
    s.once("close", () => sessions.delete(s));
  });
  const front = net.createServer((socket) => {
    const sniff = (): void => {
      const head: Buffer | null = socket.read(3);
      if (head === null) return void socket.once("readable", sniff);
      socket.unshift(head);
      (head.toString("latin1") === "PRI" ? h2 : h1).emit("connection", socket);
    };
    socket.once("readable", sniff);
    socket.on("error", () => socket.destroy());
  });
  const close = front.close.bind(front);
  (front as unknown as { close: (cb?: (err?: Error) => void) => net.Server }).close = (cb) => {
    const r = close(cb);
    h1.close();
    h1.closeIdleConnections();
    h2.close();
    for (const s of sessions) s.close();
    return r;
  };
  return front as unknown as http2.Http2Server;
}
