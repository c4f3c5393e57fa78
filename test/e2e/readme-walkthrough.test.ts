/**
 * The README's walkthrough, run as written: the commands are read
 * from the code blocks of README.md's "Walkthrough" section and run in order with bash, from the
 * repository's root, against a real server process, as a user would:
 * - `npm start` is the server this test starts (`node bin/yardmaster.js serve`, what `npm start`
 *   runs, on a free port);
 * - the two `export` lines are what the test does itself: it sets YARDMASTER_URL and
 *   YARDMASTER_ADMIN_KEY to that server's address and key;
 * - the replay runs in the background while the status command is run until it shows the
 *   replayed pull requests in the queue;
 * - `grpcurl` is not installed here: a stand-in `grpcurl` on the PATH (test/replay/
 *   grpcurl-standin.ts) makes the same calls with grpc-js.
 * Every other line runs unchanged, and its answer is checked.
 */
import { spawn } from "node:child_process";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually.js";
import { ROOT, startServerProcess, type ServerProcess } from "../support/server-process.js";

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The shell commands of the README section whose title starts with `title`, continuation lines joined, comments dropped. */
function sectionCommands(readme: string, title: string): string[] {
  const start = readme.indexOf(`## ${title}`);
  if (start === -1) throw new Error(`README.md has no section "${title}"`);
  const end = readme.indexOf("\n## ", start + 3);
  const section = readme.slice(start, end === -1 ? undefined : end);
  const commands: string[] = [];
  for (const block of section.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const text = block[1]!.replace(/\\\n\s*/g, "");
    for (const line of text.split("\n"))
      if (line.trim() !== "" && !line.trim().startsWith("#")) commands.push(line.trim());
  }
  return commands;
}

let server: ServerProcess;
let bin: string;
let env: NodeJS.ProcessEnv;
let commands: string[];

/** Runs one command line with bash from the repository's root. */
function bash(line: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", line], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

async function ok(line: string): Promise<any> {
  const run = await bash(line);
  expect(run.code, `${line}\n${run.stderr}`).toBe(0);
  return JSON.parse(run.stdout);
}

beforeAll(async () => {
  commands = sectionCommands(await readFile(path.join(ROOT, "README.md"), "utf8"), "Walkthrough");
  bin = await mkdtemp(path.join(os.tmpdir(), "ym-readme-bin-"));
  const grpcurl = path.join(bin, "grpcurl");
  await writeFile(
    grpcurl,
    `#!/bin/sh\nexec "${process.execPath}" --import tsx "${path.join(ROOT, "test/replay/grpcurl-standin.ts")}" "$@"\n`,
  );
  await chmod(grpcurl, 0o755);
  server = await startServerProcess();
  env = {
    ...server.cliEnv,
    YARDMASTER_URL: server.url,
    YARDMASTER_ADMIN_KEY: server.adminKey,
    PATH: `${bin}:${process.env.PATH}`,
  };
});
afterAll(async () => {
  await server?.stop();
  await rm(bin, { recursive: true, force: true });
});

describe("the README walkthrough", () => {
  it("has the commands this test knows how to run, in order", async () => {
    const pkg = JSON.parse(await readFile(path.join(ROOT, "package.json"), "utf8"));
    expect(pkg.scripts.start).toBe("node bin/yardmaster.js serve");
    expect(commands.slice(0, 3)).toEqual([
      "npm start",
      "export YARDMASTER_URL=http://127.0.0.1:8080",
      "export YARDMASTER_ADMIN_KEY=$(cat .yardmaster/admin-key)",
    ]);
    expect(commands[3]).toBe('npx yardmaster replay --from . --repo demo/self --limit 20 --ci "true"');
    expect(commands[4]).toMatch(/^curl -s "\$YARDMASTER_URL\/v1\/repos\/demo\/self\/merge-queue\/status"/);
    expect(commands.slice(5).every((c) => c.startsWith("curl ") || c.startsWith("grpcurl "))).toBe(true);
  });

  it("replays 20 changes while the status shows them, then the log and gRPC show the run", async () => {
    const replay = bash(commands[3]!);
    let finished: Run | null = null;
    void replay.then((r) => (finished = r));
    // The status, as `watch` would refresh it, until it shows replayed pull requests in the queue.
    const status = await eventually(
      async () => {
        expect(finished, finished ? `the replay ended first: ${finished.stderr}` : "").toBeNull();
        const s = await ok(commands[4]!);
        const numbers = [...s.batches.flatMap((b: any) => b.pull_requests), ...s.waiting_pull_requests].map(
          (p: any) => p.number,
        );
        expect(numbers.length).toBeGreaterThan(0);
        return s;
      },
      240_000,
      1_000,
    );
    expect(status.mode).toBe("serial");

    const run = await replay;
    expect(run.code, run.stderr + server.output().slice(-3000)).toBe(0);
    expect(run.stdout).toMatch(/pull requests: 20, merged 20, dequeued 0/);
    expect(run.stdout).toMatch(/final tree of the base equals the original history's tree at B/);

    const [merged, checks, aggregate, ...grpc] = await Promise.all(commands.slice(5).map(ok));
    expect(merged.events).toHaveLength(5);
    expect(merged.events.every((e: any) => e.type === "action.queue.merged")).toBe(true);
    expect(checks.events.length).toBeGreaterThan(0);
    expect(checks.events.every((e: any) => e.type === "action.queue.checks_end")).toBe(true);
    expect(
      checks.events.some((e: any) => e.metadata.speculative_check_pull_request.checks_conclusion === "success"),
    ).toBe(true);
    const byType = Object.fromEntries(aggregate.by_event_type.map((f: any) => [f.value, Number(f.count)]));
    expect(byType["action.queue.leave"]).toBe(20);
    expect(Number(aggregate.total)).toBe(byType["action.queue.leave"] + byType["action.queue.checks_start"]);
    const [grpcAggregate, grpcStatus] = grpc;
    expect(grpcAggregate.total).toBe("20");
    expect(grpcStatus.batches ?? []).toEqual([]);
    expect(grpcStatus.mode).toBe("serial");
  }, 900_000);
});
