/**
 * ClickHouse's HTTP interface served over the embedded engine (docs/activity-log.md "Past one machine"), so a
 * chdb data directory can be reached by URL: several Yardmaster processes can then share one
 * embedded ClickHouse (chdb allows one process per directory), and the by-URL code path of
 * @clickhouse/client is exercised without a ClickHouse server. Run it as its own process:
 * `yardmaster clickhouse-http --data-dir DIR --port N`.
 *
 * Implemented: GET /ping; queries from the `query` parameter and/or the body; `param_*` query
 * parameters (bound through `SET param_x = '<literal>'`, which passes ClickHouse's text format
 * through verbatim); other settings as `SET`, reset after the query; `default_format`;
 * the X-ClickHouse-Query-Id / -Summary / -Exception-Code headers the client reads. Requests run
 * one at a time: settings are per session in chdb. Not implemented: auth, compression, sessions.
 */
import http from "node:http";
import { randomUUID } from "node:crypto";
import { Session } from "chdb";

/** URL parameters the client sends that are not ClickHouse settings. */
const NOT_SETTINGS = new Set([
  "query",
  "query_id",
  "database",
  "session_id",
  "role",
  "default_format",
  "wait_end_of_query",
  "enable_http_compression",
  "send_progress_in_http_headers",
  "http_headers_progress_interval_ms",
  "user",
  "password",
]);

const quote = (v: string) => `'${v.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

/** Starts the HTTP interface on `port` (0 = any) for the chdb data directory; resolves with the server. */
export async function serveClickHouseHttp(dataDir: string, port: number, host = "127.0.0.1"): Promise<http.Server> {
  const session = new Session(dataDir);
  let queue: Promise<unknown> = Promise.resolve();
  const serialized = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => {});
    return run;
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname === "/ping") {
      res.writeHead(200, { "content-type": "text/plain" });
      return res.end("Ok.\n");
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const queryId = url.searchParams.get("query_id") || randomUUID();
    const sets: string[] = [];
    const resets: string[] = [];
    for (const [k, v] of url.searchParams) {
      if (NOT_SETTINGS.has(k) || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) continue;
      if (!k.startsWith("param_")) resets.push(`SET ${k} = DEFAULT`);
      sets.push(`SET ${k} = ${quote(v)}`);
    }
    const q = url.searchParams.get("query");
    let sql = q ? (body ? `${q}\n${body}` : q) : body;
    if (sets.length) sql = `${sets.join("; ")}; ${sql}`;
    await serialized(async () => {
      try {
        const r = await session.queryAsync(sql, { format: url.searchParams.get("default_format") || "TabSeparated" });
        res.writeHead(200, {
          "content-type": "text/plain; charset=UTF-8",
          "x-clickhouse-query-id": queryId,
          "x-clickhouse-timezone": "UTC",
          "x-clickhouse-summary": JSON.stringify({
            read_rows: String(r.rowsRead || 0),
            read_bytes: String(r.bytesRead || 0),
            written_rows: "0",
            written_bytes: "0",
            total_rows_to_read: "0",
            result_rows: "0",
            result_bytes: "0",
            elapsed_ns: "0",
          }),
        });
        res.end(Buffer.from(r.bytes()));
      } catch (e) {
        const err = e as Error & { cause?: Error };
        const msg = String(err.cause?.message ?? err.message).replace(/^Query failed: /, "");
        const code = /Code: (\d+)/.exec(msg)?.[1] ?? "1000";
        res.writeHead(code === "62" ? 400 : 500, {
          "x-clickhouse-query-id": queryId,
          "x-clickhouse-exception-code": code,
        });
        res.end(`${msg}\n`);
      } finally {
        if (resets.length) await session.queryAsync(resets.join("; ")).catch(() => {});
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  server.on("close", () => session.cleanup?.());
  return server;
}
