/**
 * One cleartext port for HTTP/1.1 and HTTP/2 (h2c with prior knowledge), chosen by the first
 * bytes of each connection: the HTTP/2 preface starts with "PRI". Node 20 ignores `allowHTTP1`
 * without TLS (docs/architecture.md "One port for every protocol"), hence the sniffing. REST, Connect, gRPC and
 * gRPC-Web all reach the same Fastify handler. `close()` stops accepting, closes idle HTTP/1.1
 * connections and HTTP/2 sessions, so shutdown does not wait for keep-alive timeouts.
 */
import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import { answerClientErrors } from "./client-error.js";

// biome-ignore lint/suspicious/noExplicitAny: Node passes HTTP/1.1 or HTTP/2 request and response objects here
type Handler = (req: any, res: any) => void;

/** A Fastify `serverFactory` serving HTTP/1.1 and h2c on one listening socket. */
export function dualProtocolServerFactory(handler: Handler): http2.Http2Server {
  const h1 = http.createServer(handler);
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
