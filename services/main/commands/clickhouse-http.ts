import type { Command } from "commander";
import { out } from "./output.js";

/** `yardmaster clickhouse-http`: serves an embedded ClickHouse data directory by URL (activity-log/clickhouse-http-server.ts). */
export function registerClickHouseHttp(program: Command): void {
  program
    .command("clickhouse-http")
    .description("serve ClickHouse's HTTP interface over an embedded ClickHouse data directory (to share it by URL)")
    .requiredOption("--data-dir <path>", "the chdb data directory")
    .option("--port <port>", "port to listen on (0 = any free port)", "8123")
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .action(async (opts: { dataDir: string; port: string; host: string }) => {
      const { serveClickHouseHttp } = await import("../../activity-log/index.js");
      const server = await serveClickHouseHttp(opts.dataDir, Number(opts.port), opts.host);
      const { port } = server.address() as { port: number };
      out(`ClickHouse HTTP interface on http://${opts.host}:${port} over ${opts.dataDir}`);
      const stop = () => server.close(() => process.exit(0));
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
}
