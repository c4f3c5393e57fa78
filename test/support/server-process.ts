/**
 * Starts the real service process (`node bin/yardmaster.js serve`, what `npm start` runs) on a free
 * port, with its own data directory and a fresh database, as an end-to-end test's user would
 * (docs/architecture.md "How it is tested"). Its stdout banner gives the port; the admin key is
 * YARDMASTER_ADMIN_KEY when the test sets it, else the data directory's file.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freshDatabase, type TestDatabase } from "./database.js";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const BIN = path.join(ROOT, "bin", "yardmaster.js");

export interface ServerProcess {
  url: string;
  port: number;
  adminKey: string;
  dataDir: string;
  db: TestDatabase;
  child: ChildProcess;
  /** Everything the process wrote, for failure messages. */
  output(): string;
  /** Environment for CLI commands against this server. */
  cliEnv: NodeJS.ProcessEnv;
  /** Stops the process (SIGTERM) and starts it again on the same database and data directory; url and port change. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Waits until the child's accumulated output (`output()`, fed by the caller's own listener)
 * matches `re`, or fails with that output.
 */
export function waitForLine(
  child: ChildProcess,
  re: RegExp,
  output: () => string,
  timeoutMs = 60_000,
): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const m = output().match(re);
      if (!m) return false;
      clearTimeout(timer);
      child.stdout!.off("data", check);
      child.off("exit", onExit);
      resolve(m);
      return true;
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`process exited with ${code} before ${re}; output:\n${output()}`));
    };
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${re}; output:\n${output()}`)), timeoutMs);
    if (check()) return;
    // Listeners run in registration order: the caller's accumulating listener comes first.
    child.stdout!.on("data", check);
    child.once("exit", onExit);
  });
}

/**
 * Starts a server; `env` adds or overrides variables (e.g. CLICKHOUSE_URL, or DATABASE_URL to
 * share another server's database), `serveArgs` are added to `serve` (e.g. `--only queue`).
 */
export async function startServerProcess(
  env: NodeJS.ProcessEnv = {},
  serveArgs: string[] = [],
): Promise<ServerProcess> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "ym-e2e-"));
  const db = await freshDatabase({ migrated: false });
  const fullEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: "0",
    HOST: "127.0.0.1",
    YARDMASTER_DATA_DIR: dataDir,
    DATABASE_URL: db.url,
    LOG_LEVEL: "warn",
    ...env,
  };
  const spawnServer = async () => {
    const child = spawn(process.execPath, [BIN, "serve", ...serveArgs], {
      cwd: ROOT,
      env: fullEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout!.on("data", (d) => (out += d));
    child.stderr!.on("data", (d) => (out += d));
    const listening = await waitForLine(child, /listening on http:\/\/127\.0\.0\.1:(\d+)/, () => out);
    // The banner says where the key is, never the key itself (docs/auth.md "The admin key").
    await waitForLine(child, /Admin key: /, () => out);
    const adminKey =
      fullEnv.YARDMASTER_ADMIN_KEY ||
      (await readFile(path.join(fullEnv.YARDMASTER_DATA_DIR ?? dataDir, "admin-key"), "utf8")).trim();
    return { child, output: () => out, port: Number(listening[1]), adminKey };
  };
  const stopChild = async (child: ChildProcess) => {
    // Already gone: exited, or killed by a signal (a test's kill -9 leaves exitCode null and sets
    // signalCode); waiting for an `exit` that has passed would take the whole 15 s.
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
  };
  const first = await spawnServer();
  const server: ServerProcess = {
    url: `http://127.0.0.1:${first.port}`,
    port: first.port,
    adminKey: first.adminKey,
    dataDir,
    db,
    child: first.child,
    output: first.output,
    cliEnv: { ...fullEnv, YARDMASTER_URL: `http://127.0.0.1:${first.port}` },
    async restart() {
      await stopChild(server.child);
      const next = await spawnServer();
      Object.assign(server, {
        url: `http://127.0.0.1:${next.port}`,
        port: next.port,
        child: next.child,
        output: next.output,
        cliEnv: { ...fullEnv, YARDMASTER_URL: `http://127.0.0.1:${next.port}` },
      });
    },
    async stop() {
      await stopChild(server.child);
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}
