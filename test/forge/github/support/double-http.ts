/**
 * The GitHub test double served over HTTP on a free local port, for a real server process to reach
 * with `GITHUB_API_URL` (docs/github.md "GitHub Enterprise Server": any API root works the same).
 * Each request is handed to a `fetch` of the double as the adapter would call it; `Link` and
 * `Location` headers, which the double writes with GitHub's origin, are rewritten to this server's,
 * so that paginated reads and redirects (a job log's signed URL) come back here.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** A running HTTP front of the double. */
export interface DoubleHttp {
  /** The API root, e.g. http://127.0.0.1:12345 */
  url: string;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Serves `fetchFn` (the double's, or a wrapper of it) on 127.0.0.1. */
export async function serveDouble(fetchFn: typeof fetch): Promise<DoubleHttp> {
  let origin = "";
  const server = createServer((req, res) => {
    void (async () => {
      try {
        const body = await bodyOf(req);
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
        const answer = await fetchFn(`https://api.github.com${req.url}`, {
          method: req.method,
          headers,
          body: body === "" ? undefined : body,
        });
        const out: Record<string, string> = {};
        answer.headers.forEach((v, k) => {
          out[k] = k === "link" || k === "location" ? v.replaceAll("https://api.github.com", origin) : v;
        });
        res.writeHead(answer.status, out);
        res.end(Buffer.from(await answer.arrayBuffer()));
      } catch (e) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ message: `the double failed: ${(e as Error).message}` }));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
