/**
 * How the `yardmaster` command chooses between the build and the sources (bin/compiled-entry.js,
 * docs/deployment.md "Running from source or from the build"): the build runs only while no source
 * changed after it started, never when YARDMASTER_FROM_SOURCE=1; from source the command works with
 * no build at all.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { freshCompiledCli } from "../../bin/compiled-entry.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
let root: string;
/** A time `seconds` from now (negative: in the past). */
const fromNow = (seconds: number) => new Date(Date.now() + seconds * 1000);

/** Writes `file` under the fixture root with the given modification time. */
async function put(file: string, modified: Date): Promise<void> {
  const full = path.join(root, file);
  await mkdir(path.dirname(full), { recursive: true });
  await writeFile(full, "x");
  await utimes(full, modified, modified);
}

/** A build that started `seconds` from now: the compiled CLI and the stamp. */
async function build(seconds = 0): Promise<void> {
  await put("dist/services/main/cli.js", fromNow(seconds + 1));
  await put("dist/.build-stamp", fromNow(seconds));
}

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "ym-entry-"));
  await put("services/main/cli.ts", fromNow(-600));
  await put("services/store/migrations/0001_init.sql", fromNow(-500));
  await put("gen/yardmaster/v1/queue_pb.ts", fromNow(-400));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("the yardmaster command's entry", () => {
  it("runs the build when it started after every source changed", async () => {
    await build();
    expect(freshCompiledCli(root, {})).toBe(path.join(root, "dist/services/main/cli.js"));
  });

  it("runs from source when a source under services/ or gen/ changed after the build started", async () => {
    await build(60);
    await put("gen/yardmaster/v1/queue_pb.ts", fromNow(90));
    expect(freshCompiledCli(root, {})).toBeNull();
    await build(120);
    await put("services/main/cli.ts", fromNow(150));
    expect(freshCompiledCli(root, {})).toBeNull();
  });

  it("runs from source when a source was added or removed after the build started, whatever its own date", async () => {
    await build(-60);
    await put("services/store/migrations/0002_more.sql", fromNow(-3600));
    expect(freshCompiledCli(root, {})).toBeNull();
    await build(1);
    expect(freshCompiledCli(root, {})).not.toBeNull();
    await rm(path.join(root, "services/store/migrations/0001_init.sql"));
    await build(-1);
    expect(freshCompiledCli(root, {})).toBeNull();
  });

  it("runs from source, instead of failing, when an entry vanishes while the sources are read", async () => {
    await build(60);
    // A dangling link is listed by readdir and fails stat with ENOENT, as a file removed between the two would.
    await symlink(path.join(root, "gone.ts"), path.join(root, "services/main/vanished.ts"));
    expect(freshCompiledCli(root, {})).toBeNull();
  });

  it("runs from source with no build, a build without its stamp, or YARDMASTER_FROM_SOURCE=1", async () => {
    expect(freshCompiledCli(root, {})).toBeNull();
    await put("dist/services/main/cli.js", fromNow(1));
    expect(freshCompiledCli(root, {})).toBeNull();
    await build();
    expect(freshCompiledCli(root, { YARDMASTER_FROM_SOURCE: "1" })).toBeNull();
  });

  it("works from source", async () => {
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        [path.join(ROOT, "bin/yardmaster.js"), "freeze", "--help"],
        { cwd: ROOT, env: { ...process.env, YARDMASTER_FROM_SOURCE: "1" }, timeout: 60_000 },
        (error, out) => (error ? reject(error) : resolve(out)),
      );
    });
    expect(stdout).toMatch(/^Usage: yardmaster freeze/);
  });
});
