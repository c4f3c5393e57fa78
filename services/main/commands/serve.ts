import type { Command } from "commander";
import { armFailpointsFromEnvironment } from "../../failpoints/index.js";
import { readSettings } from "../settings.js";
import { out } from "./output.js";

/** `yardmaster serve`: starts the service and stops it cleanly on SIGINT/SIGTERM. */
export function registerServe(program: Command): void {
  program
    .command("serve")
    .description("start the service (REST, Connect, gRPC and gRPC-Web on one port)")
    .option("--port <port>", "port to listen on (default: PORT or 8080)")
    .option(
      "--only <services>",
      "run only these services, comma-separated: queue, simulator, activity-log (the others are reached at YARDMASTER_<SERVICE>_URL; docs/deployment.md)",
    )
    .action(async (opts: { port?: string; only?: string }) => {
      const settings = readSettings(opts.port ? { ...process.env, PORT: opts.port } : process.env);
      // Fault tests only (docs/reliability.md "Failpoints"); a spec that does not parse stops the start.
      const armed = armFailpointsFromEnvironment(process.env);
      if (armed.length > 0) process.stderr.write(`yardmaster: failpoints armed: ${armed.join(", ")}\n`);
      // Loaded here, not at the top: every other command starts without the whole service.
      const { startServer } = await import("../server.js");
      const only = opts.only
        ?.split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "");
      const server = await startServer(settings, out, only);
      let stopping = false;
      // docs/deployment.md "Several replicas": unready at once, the port open for the delay (a load
      // balancer stops sending meanwhile), then the port closed after the requests under way, the
      // runner stopped after its round (its locks released), and the replicas left.
      const stop = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        const delaySeconds = settings.replica.shutdownDelaySeconds;
        server.logger.info({ signal, delaySeconds }, "shutting down");
        server.beginShutdown();
        if (delaySeconds > 0) await new Promise((r) => setTimeout(r, delaySeconds * 1000));
        await server.close();
        process.exit(0);
      };
      process.once("SIGINT", () => void stop("SIGINT"));
      process.once("SIGTERM", () => void stop("SIGTERM"));
    });
}
