import type { Command } from "commander";
import { readSettings } from "../settings.js";
import { out } from "./output.js";

/** `yardmaster serve`: starts the service and stops it cleanly on SIGINT/SIGTERM. */
export function registerServe(program: Command): void {
  program
    .command("serve")
    .description("start the service (REST, Connect, gRPC and gRPC-Web on one port)")
    .option("--port <port>", "port to listen on (default: PORT or 8080)")
    .action(async (opts: { port?: string }) => {
      const settings = readSettings(opts.port ? { ...process.env, PORT: opts.port } : process.env);
      // Loaded here, not at the top: every other command starts without the whole service.
      const { startServer } = await import("../server.js");
      const server = await startServer(settings, out);
      let stopping = false;
      const stop = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        server.logger.info({ signal }, "shutting down");
        await server.close();
        process.exit(0);
      };
      process.once("SIGINT", () => void stop("SIGINT"));
      process.once("SIGTERM", () => void stop("SIGTERM"));
    });

}
