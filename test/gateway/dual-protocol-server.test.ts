/**
 * The one-port HTTP/1.1 + h2c server's keep-alive (services/gateway/dual-protocol-server.ts): an
 * idle HTTP/1.1 connection stays open 72 s, advertised in `Keep-Alive`, so that a client reusing
 * a connection that sat idle a few seconds (while it built its next upload) is not closed under
 * its request and always reads the answer; Fastify's `keepAliveTimeout` still applies.
 */
import { once } from "node:events";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { dualProtocolServerFactory } from "../../services/gateway/dual-protocol-server.js";
import { eventually } from "../support/eventually.js";

let server: net.Server | null = null;
afterEach(async () => {
  await new Promise((r) => server?.close(r));
  server = null;
});

/** A server answering "ok" to everything, listening on a free port; its port. */
async function listen(options?: { keepAliveTimeout?: number }): Promise<number> {
  const s = dualProtocolServerFactory((_req, res) => res.end("ok"), options) as unknown as net.Server;
  server = s;
  s.listen(0, "127.0.0.1");
  await once(s, "listening");
  return (s.address() as net.AddressInfo).port;
}

/** One raw HTTP/1.1 connection: what it has read so far, and whether the server closed it. */
function connect(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  const state = { text: "", ended: false, socket };
  socket.setEncoding("latin1");
  socket.on("data", (d: string) => {
    state.text += d;
  });
  socket.on("end", () => {
    state.ended = true;
  });
  return state;
}
const get = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";

describe("HTTP/1.1 keep-alive", () => {
  it("advertises 72 s and answers a second request on the same connection", async () => {
    const c = connect(await listen());
    c.socket.write(get);
    await eventually(async () => expect(c.text).toMatch(/\r\n\r\nok$/));
    expect(c.text).toMatch(/^Keep-Alive: timeout=72\r$/m);
    c.socket.write(get);
    await eventually(async () => expect(c.text.match(/HTTP\/1\.1 200/g)).toHaveLength(2));
    expect(c.ended).toBe(false);
    c.socket.destroy();
  });

  it("takes Fastify's keepAliveTimeout: an idle connection is closed after it", async () => {
    const c = connect(await listen({ keepAliveTimeout: 300 }));
    c.socket.write(get);
    await eventually(async () => expect(c.text).toMatch(/\r\n\r\nok$/));
    expect(c.text).not.toMatch(/timeout=72/);
    await eventually(async () => expect(c.ended).toBe(true), 10_000);
  });
});
