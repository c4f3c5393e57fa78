/**
 * The `yardmaster` command line (commander). `serve` starts the service; `migrate` applies the
 * PostgreSQL and ClickHouse migrations; every other command is a client of the running service.
 * Errors print one line to stderr and exit with status 1 (2 for usage errors).
 */
import { Command, CommanderError } from "commander";
import { ConnectError } from "@connectrpc/connect";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { TokenService } from "../../gen/yardmaster/v1/admin_pb.js";
import { createClickHouseClient, migrateClickHouse, serveClickHouseHttp } from "../activity-log/index.js";
import { migrate, openDatabase } from "../store/index.js";
import { serviceClient } from "./rpc-client.js";
import { startServer } from "./server.js";
import { readSettings } from "./settings.js";

const out = (line: string) => process.stdout.write(line + "\n");

/** Builds the program (exported for tests). */
export function buildProgram(): Command {
  const program = new Command("yardmaster").description("An open merge queue: batches, speculative checks, bisection, and an activity log.").showHelpAfterError();

  program
    .command("serve")
    .description("start the service (REST, Connect, gRPC and gRPC-Web on one port)")
    .option("--port <port>", "port to listen on (default: PORT or 8080)")
    .action(async (opts: { port?: string }) => {
      const settings = readSettings(opts.port ? { ...process.env, PORT: opts.port } : process.env);
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

  program
    .command("migrate")
    .description("apply pending PostgreSQL and ClickHouse migrations, then exit")
    .action(async () => {
      const settings = readSettings();
      const db = await openDatabase({ url: settings.databaseUrl, dataDir: settings.dataDir });
      try {
        const pg = await migrate(db.url);
        const ch = createClickHouseClient(settings.clickhouse);
        try {
          const chApplied = await migrateClickHouse(ch);
          out(`PostgreSQL: ${pg.length ? pg.join(", ") : "up to date"}`);
          out(`ClickHouse: ${chApplied.length ? chApplied.join(", ") : "up to date"}`);
        } finally {
          await ch.close();
        }
      } finally {
        await db.close();
      }
    });

  program
    .command("clickhouse-http")
    .description("serve ClickHouse's HTTP interface over an embedded ClickHouse data directory (to share it by URL)")
    .requiredOption("--data-dir <path>", "the chdb data directory")
    .option("--port <port>", "port to listen on (0 = any free port)", "8123")
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .action(async (opts: { dataDir: string; port: string; host: string }) => {
      const server = await serveClickHouseHttp(opts.dataDir, Number(opts.port), opts.host);
      const { port } = server.address() as { port: number };
      out(`ClickHouse HTTP interface on http://${opts.host}:${port} over ${opts.dataDir}`);
      const stop = () => server.close(() => process.exit(0));
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });

  const token = program.command("token").description("tokens issued by the service (admin key required)");
  token
    .command("create")
    .description("issue a token for one or more repositories; prints the secret once")
    .requiredOption("--repo <owner/name>", "a repository the token reaches (repeatable)", (v: string, acc: string[]) => [...acc, v], [] as string[])
    .option("--description <text>", "who or what the token is for", "")
    .action(async (opts: { repo: string[]; description: string }) => {
      const client = await serviceClient(TokenService, readSettings());
      const res = await client.createToken({ repositories: opts.repo, description: opts.description });
      out(res.secret);
      process.stderr.write(`token ${res.token!.id} for ${res.token!.repositories.join(", ")}; the secret above is shown only once\n`);
    });
  token
    .command("list")
    .description("list issued tokens (without secrets)")
    .action(async () => {
      const client = await serviceClient(TokenService, readSettings());
      const res = await client.listTokens({});
      for (const t of res.tokens) {
        const state = t.revokedAt ? `revoked ${timestampDate(t.revokedAt).toISOString()}` : "active";
        out(`${t.id}  ${state}  ${t.repositories.join(",")}  ${t.description}`);
      }
    });
  token
    .command("revoke <id>")
    .description("revoke a token")
    .action(async (id: string) => {
      const client = await serviceClient(TokenService, readSettings());
      const res = await client.revokeToken({ id });
      out(`revoked ${res.token!.id}`);
    });

  return program;
}

/** Runs the CLI with `argv` (process.argv form). */
export async function runCli(argv: string[]): Promise<void> {
  const program = buildProgram().exitOverride();
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) process.exit(e.exitCode === 0 ? 0 : 2);
    const msg = e instanceof ConnectError ? `${e.rawMessage} (${e.code})` : (e as Error).message;
    process.stderr.write(`yardmaster: ${msg}\n`);
    process.exit(1);
  }
}
