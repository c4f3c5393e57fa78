/**
 * The CLI's newer commands and its messages against a real server process (docs/deployment.md
 * "Where the CLI finds the service", docs/configuration.md "Validating a file"): --version;
 * queue status, pause, unpause and dequeue; config validate here and with the service; a command
 * that finds the server through its data directory, and one that cannot reach it or has no key.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliStdout, runCli } from "../support/cli.js";
import { eventually } from "../support/eventually.js";
import { gitWorkdir, type GitWorkdir } from "../support/git-workdir.js";
import { restCall } from "../support/rest-client.js";
import { ROOT, startServerProcess, type ServerProcess } from "../support/server-process.js";

let server: ServerProcess;
let work: string;
let src: GitWorkdir;

/** A lone pull request waits an hour for company: it stays in the queue until it is dequeued. */
const CONFIG = [
  "queue_rules:",
  "  - name: default",
  "    batch_size: 3",
  '    batch_max_wait_time: "1 h"',
  "    branch_protection_injection_mode: merge",
  "",
].join("\n");

const cli = (...args: string[]) => cliStdout(server.cliEnv, args);

/** A port nothing listens on now. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "ym-e2e-cli-"));
  src = await gitWorkdir(path.join(work, "cli"));
  await src.commit("Initial commit", {
    "README.md": "cli\n",
    ".yardmaster.yml": CONFIG,
    ".yardmaster/ci.yml": 'checks:\n  - name: test\n    run: "true"\n',
  });
  server = await startServerProcess();
  await cli("repo", "add", "acme/cli", "--from", src.path);
});
afterAll(async () => {
  await server?.stop();
  await rm(work, { recursive: true, force: true });
});

describe("yardmaster", () => {
  it("prints its version", async () => {
    const pkg = (await import(path.join(ROOT, "package.json"), { with: { type: "json" } })).default;
    expect(await cli("--version")).toBe(pkg.version);
  });

  it("shows, pauses, unpauses a queue and dequeues a pull request", async () => {
    expect(await cli("queue", "status", "acme/cli")).toBe("acme/cli: serial queue\nnot paused\nthe queue is empty");
    src.git("switch", "--quiet", "-c", "feature", "main");
    await src.commit("Add a feature", { "feature.txt": "x\n" });
    src.git("switch", "--quiet", "main");
    await cli("repo", "push", "acme/cli", "--from", src.path, "--ref", "feature", "--branch", "feature");
    const opened = await cli(
      "pr",
      "open",
      "acme/cli",
      "--head",
      "feature",
      "--base",
      "main",
      "--title",
      "Add a feature",
    );
    const number = /^#(\d+)/.exec(opened)![1]!;
    await cli("pr", "comment", "acme/cli", number, "@yardmaster queue");
    const status = await eventually(async () => {
      const text = await cli("queue", "status", "acme/cli");
      expect(text).toContain(`#${number} Add a feature`);
      return text;
    }, 60_000);
    // In the batch filling up (it waits an hour for company), with its author.
    expect(status).toMatch(new RegExp(`\\n {2}Batch 1 \\[\\w+\\] default\\n {4}#${number} Add a feature \\(\\S+\\)`));
    const json = JSON.parse(await cli("queue", "status", "acme/cli", "--json"));
    const numbers = [...json.batches.flatMap((b: any) => b.pull_requests), ...json.waiting_pull_requests].map(
      (p: any) => p.number,
    );
    expect(numbers).toEqual([number]);

    expect(await cli("queue", "pause", "acme/cli", "--reason", "release 1.0")).toMatch(
      /^acme\/cli paused since \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ: release 1\.0$/,
    );
    expect(await cli("queue", "status", "acme/cli")).toMatch(/\npaused since \S+: release 1\.0\n/);
    expect((await restCall(server, "GET", "/v1/repos/acme/cli/merge-queue/pause")).json.paused).toBe(true);
    expect(await cli("queue", "unpause", "acme/cli")).toBe("acme/cli unpaused");
    expect((await restCall(server, "GET", "/v1/repos/acme/cli/merge-queue/pause")).json.paused).toBe(false);

    expect(await cli("queue", "dequeue", "acme/cli", number)).toBe(`#${number} dequeued from acme/cli`);
    await eventually(async () => expect(await cli("queue", "status", "acme/cli")).toContain("the queue is empty"));
    const again = await runCli(["queue", "dequeue", "acme/cli", number], server.cliEnv);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^yardmaster: .*not in .*queue.* \(NotFound\)\n$/i);
  });

  it("validates a configuration file here and with the service, with an exit status for CI", async () => {
    const good = path.join(work, "good.yml");
    const bad = path.join(work, "bad.yml");
    await writeFile(good, CONFIG);
    await writeFile(bad, "queue_rules:\n  - name: default\n    batch_size: 300\n");
    const ok = await runCli(["config", "validate", good], server.cliEnv);
    expect([ok.code, ok.stdout]).toEqual([0, `${good}: valid\n`]);
    const refused = await runCli(["config", "validate", bad], server.cliEnv);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${bad}: expected an integer from 1 to 128`);
    expect(refused.stderr).toContain("(line 3, column 17)");
    const viaService = await runCli(["config", "validate", bad, "--repo", "acme/cli"], server.cliEnv);
    expect(viaService.code).toBe(1);
    expect(viaService.stderr).toContain(`${bad}: expected an integer from 1 to 128`);
    const goodViaService = await runCli(["config", "validate", good, "--repo", "acme/cli"], server.cliEnv);
    expect([goodViaService.code, goodViaService.stdout]).toEqual([0, `${good}: valid\n`]);
    const missing = await runCli(["config", "validate", path.join(work, "nope.yml")], server.cliEnv);
    expect([missing.code, missing.stderr]).toEqual([
      1,
      `yardmaster: cannot read ${path.join(work, "nope.yml")}: no such file\n`,
    ]);
  });

  it("finds the server through its data directory when YARDMASTER_URL is not set", async () => {
    const { YARDMASTER_URL: _, ...env } = server.cliEnv;
    const res = await runCli(["queue", "status", "acme/cli"], env);
    expect(res.code, res.stderr).toBe(0);
  });

  it("says where it looked and what runs when it cannot reach the service", async () => {
    const port = await closedPort();
    const wrong = `http://127.0.0.1:${port}`;
    const res = await runCli(["queue", "status", "acme/cli"], { ...server.cliEnv, YARDMASTER_URL: wrong });
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(
      `yardmaster: cannot reach the Yardmaster service at ${wrong} (from YARDMASTER_URL): connection refused; ` +
        `a Yardmaster server runs from ${server.dataDir} (pid ${server.child.pid}) and listens on ${server.url}: ` +
        `set YARDMASTER_URL=${server.url} (Unavailable)\n`,
    );
    const elsewhere = await mkdtemp(path.join(os.tmpdir(), "ym-e2e-cli-none-"));
    try {
      const none = await runCli(["token", "list"], {
        ...server.cliEnv,
        YARDMASTER_URL: wrong,
        YARDMASTER_DATA_DIR: elsewhere,
        YARDMASTER_ADMIN_KEY: server.adminKey,
      });
      expect(none.stderr).toContain(`no Yardmaster server runs from the data directory ${elsewhere}: start one with`);
      const noKey = await runCli(["token", "list"], {
        ...server.cliEnv,
        YARDMASTER_DATA_DIR: elsewhere,
        YARDMASTER_ADMIN_KEY: "",
      });
      expect(noKey.code).toBe(1);
      expect(noKey.stderr).toContain(
        `yardmaster: no admin key: YARDMASTER_ADMIN_KEY is not set and ${path.join(elsewhere, "admin-key")} does not exist`,
      );
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });
});
