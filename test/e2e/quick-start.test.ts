/**
 * The README's quick start, run as written by a newcomer, from a fresh directory with no data
 * directory yet (README.md "Quick start"; like readme-walkthrough.test.ts runs the walkthrough):
 * - the commands are read from the section's `sh` blocks and run with bash, in order, in one
 *   shell (so `KEY=...` holds for the lines after it), from a fresh directory that holds the
 *   project (links to its node_modules, bin/ and gen/, and a copy of its package.json without
 *   its `bin` entry and its link to itself: with them, npx would take the directory for a
 *   package to build and install, since the links lead to the real checkout), so
 *   `.yardmaster/` is created there;
 * - `npm ci && npm start`: the install is the test run's own; `npm start` runs as written, in the
 *   background, on embedded PostgreSQL and ClickHouse in the fresh data directory. The one thing
 *   the test adds is `PORT`, a free port (8080 may be taken on a shared machine); the lines that
 *   name `127.0.0.1:8080` are run with that port instead. `npm test` is this suite, not run again;
 * - every other line runs unchanged, with only the variables the README has set at that point
 *   (no YARDMASTER_URL, YARDMASTER_ADMIN_KEY or YARDMASTER_DATA_DIR): `npx yardmaster token
 *   create` finds the server and the key in `.yardmaster/` itself. `grpcurl` is the walkthrough
 *   test's stand-in (test/replay/grpcurl-standin.ts) on the PATH.
 * Then what a newcomer meets next: the start banner shows where the key is but never the key; a
 * second `npm start` on the busy port is refused before any work, naming PORT; the API reference
 * renders in a browser from this origin only; once the server is stopped, a CLI command says it
 * cannot reach it and that no server runs, instead of a bare ECONNREFUSED.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmod, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser.js";
import { eventually } from "../support/eventually.js";
import { ROOT, waitForLine } from "../support/server-process.js";

/** The shell commands of the README section `title`, continuation lines joined, comments dropped. */
function sectionCommands(readme: string, title: string): string[] {
  const start = readme.indexOf(`## ${title}`);
  if (start === -1) throw new Error(`README.md has no section "${title}"`);
  const end = readme.indexOf("\n## ", start + 3);
  const section = readme.slice(start, end === -1 ? undefined : end);
  const commands: string[] = [];
  for (const block of section.matchAll(/```sh\n([\s\S]*?)```/g))
    for (const line of block[1]!.replace(/\\\n\s*/g, "").split("\n"))
      if (line.trim() !== "" && !line.trim().startsWith("#")) commands.push(line.replace(/\s+# .*$/, "").trim());
  return commands;
}

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let dir: string;
let bin: string;
let port: number;
let env: NodeJS.ProcessEnv;
let server: ChildProcess;
let output = "";
let commands: string[];

/** Stops `npm start` and its server (SIGINT to the group, as Ctrl-C in its terminal) and waits for the server's exit. */
async function stop(): Promise<void> {
  const exited = new Promise((r) => server.once("exit", r));
  process.kill(-server.pid!, "SIGINT");
  await exited;
  await eventually(
    async () =>
      expect(await readFile(path.join(dir, ".yardmaster", "server.json"), "utf8").catch(() => "gone")).toBe("gone"),
    30_000,
  );
}

/** Runs `script` with bash in the fresh directory. */
function bash(script: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", script], {
      cwd: dir,
      env: { ...env, ...extraEnv },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  commands = sectionCommands(await readFile(path.join(ROOT, "README.md"), "utf8"), "Quick start");
  dir = await mkdtemp(path.join(os.tmpdir(), "ym-quick-start-"));
  // As root, the embedded PostgreSQL runs under its own user, which must be able to enter it.
  await chmod(dir, 0o755);
  for (const entry of ["node_modules", "bin", "gen"]) await symlink(path.join(ROOT, entry), path.join(dir, entry));
  const pkg = JSON.parse(await readFile(path.join(ROOT, "package.json"), "utf8"));
  delete pkg.bin;
  delete pkg.dependencies.yardmaster;
  await writeFile(path.join(dir, "package.json"), JSON.stringify(pkg, null, 2));
  bin = await mkdtemp(path.join(os.tmpdir(), "ym-quick-start-bin-"));
  await writeFile(
    path.join(bin, "grpcurl"),
    `#!/bin/sh\nexec "${process.execPath}" --import tsx "${path.join(ROOT, "test/replay/grpcurl-standin.ts")}" "$@"\n`,
  );
  await chmod(path.join(bin, "grpcurl"), 0o755);
  // A newcomer's environment: none of Yardmaster's variables.
  env = Object.fromEntries(
    Object.entries(process.env).filter(
      // npm's own variables too: the test runner was started by npm, a newcomer's shell was not.
      ([k]) => !/^(YARDMASTER_|PORT$|HOST$|DATABASE_URL$|CLICKHOUSE_|LOG_|FORGE$|KEY$|npm_|INIT_CWD$)/i.test(k),
    ),
  );
  env.PATH = `${bin}:${process.env.PATH}`;
  port = await freePort();
}, 60_000);
afterAll(async () => {
  if (server && server.exitCode === null && server.signalCode === null) await stop();
  await rm(dir, { recursive: true, force: true });
  await rm(bin, { recursive: true, force: true });
});

describe("the README's quick start", () => {
  it("has the commands this test knows how to run", async () => {
    expect(commands[0]).toBe("npm ci && npm start");
    expect(commands[1]).toBe("npm test");
    expect(commands[2]).toBe("KEY=$(cat .yardmaster/admin-key)");
    expect(commands.filter((c) => c.startsWith("npx yardmaster token create"))).toHaveLength(1);
    expect(commands.slice(3).every((c) => /^(curl|npx yardmaster|grpcurl) /.test(c))).toBe(true);
  });

  it("starts with npm start in a fresh directory, saying where the admin key is but not the key", async () => {
    // Its own process group: stopping it stops npm and the server it started, as Ctrl-C does.
    server = spawn("bash", ["-c", "npm start"], {
      detached: true,
      cwd: dir,
      env: { ...env, PORT: String(port) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout!.on("data", (d) => (output += d));
    server.stderr!.on("data", (d) => (output += d));
    await waitForLine(server, /Admin key: .*\n/, () => output, 180_000);
    const key = (await readFile(path.join(dir, ".yardmaster", "admin-key"), "utf8")).trim();
    expect(output).toContain(`Yardmaster is listening on http://127.0.0.1:${port}`);
    expect(output).toContain(
      `Admin key: generated now, in ${path.join(dir, ".yardmaster", "admin-key")} (${key.slice(0, 8)}…;`,
    );
    expect(output).not.toContain(key);
  }, 200_000);

  it("runs the rest as written, token create included, with only KEY set", async () => {
    const lines = commands.slice(2).map((c) => c.replaceAll("127.0.0.1:8080", `127.0.0.1:${port}`));
    const script = lines.map((l, i) => `echo "::begin ${i}"; ${l}; echo "::end ${i} $?"`).join("\n");
    const run = await bash(script);
    const results = lines.map((line, i) => {
      const m = new RegExp(`::begin ${i}\\n([\\s\\S]*?)::end ${i} (\\d+)`).exec(run.stdout);
      expect(m, `${line}\n${run.stderr}`).not.toBeNull();
      expect(Number(m![2]), `${line}\n${run.stderr}`).toBe(0);
      return { line, out: m![1]!.trim() };
    });
    const answer = (prefix: string) => results.find((r) => r.line.startsWith(prefix))!.out;
    const [paused, readBack] = results.filter((r) => r.line.includes("merge-queue/pause")).map((r) => r.out);
    expect(JSON.parse(paused!)).toMatchObject({ paused: true, reason: "release 1.0" });
    expect(JSON.parse(readBack!)).toMatchObject({ paused: true, reason: "release 1.0" });
    expect(
      JSON.parse(answer(`curl -s http://127.0.0.1:${port}/v1/repos/acme/widgets/merge-queue/status`)),
    ).toMatchObject({ batches: [], waiting_pull_requests: [] });
    const secret = answer("npx yardmaster token create");
    expect(secret).toMatch(/^ym_[0-9a-f]{32}_[\w-]{43}$/);
    expect(run.stderr).toMatch(/token \S+ for acme\/widgets; the secret above is shown only once/);
    // The token works for its repository.
    const res = await fetch(`http://127.0.0.1:${port}/v1/repos/acme/widgets/merge-queue/pause`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(answer("grpcurl "))).toMatchObject({ mode: "serial" });
  }, 120_000);

  it("refuses a second npm start on the busy port at once, naming PORT, before any work", async () => {
    const before = output;
    const second = await bash("npm start", { PORT: String(port) });
    expect(second.code).not.toBe(0);
    expect(second.stderr).toContain(`yardmaster: port ${port} on 0.0.0.0 is in use`);
    expect(second.stderr).toMatch(/choose another port with PORT/);
    expect(`${second.stdout}${second.stderr}`).not.toMatch(/migrations applied|PostgreSQL/);
    expect(output).toBe(before);
  }, 60_000);

  it("serves the API reference from this origin only", async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      // What left for the network: a request the page's CSP blocks fails with "csp" and never leaves.
      const elsewhere: string[] = [];
      const blocked: string[] = [];
      const local = (url: string) => /^(blob:|data:)/.test(url) || url.startsWith(`http://127.0.0.1:${port}/`);
      page.on("requestfinished", (r) => void (local(r.url()) || elsewhere.push(r.url())));
      page.on("requestfailed", (r) => {
        if (local(r.url())) return;
        if (r.failure()?.errorText === "csp") blocked.push(r.url());
        else elsewhere.push(`${r.url()} (${r.failure()?.errorText})`);
      });
      await page.goto(`http://127.0.0.1:${port}/docs`);
      await page.locator("h2", { hasText: "QueueService.GetMergeQueueStatus" }).first().waitFor({ timeout: 60_000 });
      expect(elsewhere, elsewhere.join("\n")).toEqual([]);
      // Redoc's footer logo is asked for on its CDN; the browser does not send it.
      expect(blocked.every((u) => u.startsWith("https://cdn.redoc.ly/"))).toBe(true);
    } finally {
      await browser.close();
    }
  }, 120_000);

  it("says, once the server is stopped, that none runs and how to start one", async () => {
    await stop();
    // The server's own port (free now), as YARDMASTER_URL: 8080 may be another program's here.
    const url = `http://127.0.0.1:${port}`;
    await eventually(async () => {
      const run = await bash('npx yardmaster token create --repo acme/widgets --description "release script"', {
        YARDMASTER_URL: url,
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        `yardmaster: cannot reach the Yardmaster service at ${url} (from YARDMASTER_URL): connection refused; ` +
          `no Yardmaster server runs from the data directory ${path.join(dir, ".yardmaster")}: start one with \`npm start\``,
      );
      expect(run.stderr).not.toMatch(/^Error|ECONNREFUSED/m);
    }, 30_000);
  }, 60_000);
});
