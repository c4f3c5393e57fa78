/**
 * The GitHub test double over HTTP, for `yardmaster serve` processes of their own (several replicas
 * on one database, test/e2e/replicas-*.test.ts; `npm run bench:scale`): each request is handed to
 * the double's `fetch` as the adapter in the test process would, and its answer written back. Point
 * a process at it with `GITHUB_API_URL=<url>`. Every request the double saw is reported to
 * `observe` with the time it was answered, so a test or a benchmark can wait for an effect (a merge,
 * a draft pull request) as it reaches "GitHub".
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { GithubDouble, SeenRequest } from "./github-double.js";

/** A request the double answered: what it saw, its status, when (epoch ms) and how long it took (ms). */
export interface AnsweredRequest extends SeenRequest {
  status: number;
  at: number;
  ms: number;
}

/** The double listening on a loopback port. */
export interface DoubleServer {
  /** The API root to give a process (`GITHUB_API_URL`). */
  url: string;
  close(): Promise<void>;
}

/** Serves `double` on a free loopback port; `observe` hears of every answered request (never throwing into the server). */
export async function serveGithubDouble(
  double: GithubDouble,
  observe: (request: AnsweredRequest) => void = () => {},
): Promise<DoubleServer> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
      const url = `http://${req.headers.host}${req.url}`;
      const began = Date.now();
      const before = double.requests.length;
      const answered = double.fetch(url, { method: req.method, headers, body: body === "" ? undefined : body });
      // The double records a request synchronously, before its first await (GraphQL is not recorded).
      const seen = double.requests.length > before ? double.requests.at(-1) : undefined;
      answered
        .then(async (answer) => {
          const text = await answer.text();
          res.writeHead(answer.status, Object.fromEntries(answer.headers));
          res.end(text);
          if (seen) {
            try {
              const at = Date.now();
              observe({ ...seen, status: answer.status, at, ms: at - began });
            } catch {
              // An observer's mistake must not take the double down.
            }
          }
        })
        .catch((e: Error) => {
          double.problems.push(`${req.method} ${req.url}: the double failed: ${e.stack ?? e.message}`);
          res.writeHead(500, { "content-type": "application/json" });
          res.end(JSON.stringify({ message: `the double failed: ${e.message}` }));
        });
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
