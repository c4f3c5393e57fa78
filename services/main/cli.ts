/**
 * The `yardmaster` command line (commander). `serve` starts the service; `migrate` applies the
 * PostgreSQL and ClickHouse migrations; every other command is a client of the running service
 * (docs/deployment.md "The operational contract"). Errors print one line to stderr and exit with
 * status 1 (2 for usage errors).
 */
import { Command, CommanderError } from "commander";
import { Code, ConnectError } from "@connectrpc/connect";
import { COMMANDS } from "./commands/index.js";
import { yardmasterVersion } from "./version.js";

/** Builds the program (exported for tests). */
export function buildProgram(): Command {
  // exitOverride before the subcommands exist, so they inherit it (usage errors exit with 2).
  const program = new Command("yardmaster")
    .description("An open merge queue: batches, speculative checks, bisection, and an activity log.")
    .version(yardmasterVersion(), "-V, --version", "print the version of Yardmaster")
    .showHelpAfterError()
    .exitOverride();
  for (const register of COMMANDS) register(program);
  return program;
}

/** Runs the CLI with `argv` (process.argv form). */
export async function runCli(argv: string[]): Promise<void> {
  const program = buildProgram();
  // Output piped into a reader that stopped (`| head`) ends the command quietly, as Unix tools do.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(0);
    throw e;
  });
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) process.exit(e.exitCode === 0 ? 0 : 2);
    const msg =
      e instanceof ConnectError
        ? `${e.rawMessage} (${Code[e.code]})`
        : e instanceof Error
          ? e.message
          : `failed: ${String(e)}`;
    process.stderr.write(`yardmaster: ${msg}\n`);
    process.exit(1);
  }
}
