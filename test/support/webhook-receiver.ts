/**
 * A webhook receiver the tests run (docs/notifications.md): an HTTP server on a free port that
 * records every request (path, headers, raw body) and answers as each path's behaviour says: a
 * status, a status for the first N requests then 200, or no answer at all (held until the
 * receiver closes) to play a slow receiver.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request the receiver got. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** When it arrived, epoch ms. */
  at: number;
}

/** How a path answers: an HTTP status, `{failFirst, status}` (that status, then 200), or "hang". */
export type Behaviour = number | { failFirst: number; status: number } | "hang";

/** A running receiver: `url(path)`, what it got, and a way to change a path's behaviour. */
export interface WebhookReceiver {
  url(path: string): string;
  received(path?: string): Received[];
  behave(path: string, b: Behaviour): void;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1; paths not given a behaviour answer 200. */
export async function startWebhookReceiver(behaviours: Record<string, Behaviour> = {}): Promise<WebhookReceiver> {
  const got: Received[] = [];
  const held = new Set<ServerResponse>();
  const seen = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      got.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      const n = (seen.get(path) ?? 0) + 1;
      seen.set(path, n);
      const b = behaviours[path] ?? 200;
      if (b === "hang") {
        held.add(res);
        res.on("close", () => held.delete(res));
        return;
      }
      const status = typeof b === "number" ? b : n <= b.failFirst ? b.status : 200;
      res.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "ok" : "no");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received: (path) => (path === undefined ? [...got] : got.filter((r) => r.path === path)),
    behave: (path, b) => void (behaviours[path] = b),
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
