/**
 * The pure parts around a replay's steps (docs/replay.md "Time", "Options", "The replayed
 * repository"): arrival delays and the automatic speed, the option checks naming the option, the
 * logins given to replayed authors, the Link header's next cursor, and the generated CI file,
 * run for real with bash on a commit that is broken on purpose and on one that is not.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AUTO_GAP_MS,
  brokenMarker,
  ciFile,
  DEFAULT_REPLAY_CONFIG,
  loginOf,
  nextCursor,
  parseReplayOptions,
  parseSpeed,
  replayDelays,
  ReplayError,
} from "../../services/replay/index.js";
import { loadConfiguration } from "../../services/config/index.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "ym-replay-opts-"));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe("arrival delays", () => {
  const minute = 60_000;
  it.each([
    ["a factor", [0, 10 * minute, 30 * minute], 60, [0, 10_000, 30_000], 60],
    [
      "auto: 2 s apart on average",
      [0, 10 * minute, 40 * minute],
      "auto" as const,
      [0, 1_000, 4_000],
      (40 * minute) / (2 * AUTO_GAP_MS),
    ],
    ["auto never slower than real time", [0, 1_000, 2_000], "auto" as const, [0, 1_000, 2_000], 1],
    ["one arrival", [5 * minute], "auto" as const, [0], 1],
  ])("%s", (_name, arrivals, speed, delays, factor) => {
    expect(replayDelays(arrivals, speed)).toEqual({ delays, factor });
  });

  it("reads --speed", () => {
    expect(parseSpeed("auto")).toBe("auto");
    expect(parseSpeed("1e6")).toBe(1e6);
    for (const bad of ["0", "-2", "fast", ""]) expect(() => parseSpeed(bad)).toThrow(/--speed/);
  });
});

describe("options", () => {
  const base = { from: ".", repo: "demo/self" };
  it("completes the defaults: base main, the whole history, CI `true`, the replay configuration, auto speed", async () => {
    const o = await parseReplayOptions(base);
    expect(o).toMatchObject({
      repo: { owner: "demo", repository: "self" },
      base: "main",
      limit: null,
      speed: "auto",
      breaks: new Set(),
      timeoutMs: 1_800_000,
      json: false,
    });
    expect(path.isAbsolute(o.from)).toBe(true);
    expect(o.configYml).toBe(DEFAULT_REPLAY_CONFIG);
    expect(parse(o.ciYml).checks[0].run).toContain("\ntrue\n");
  });

  it("reads --break, --limit and a valid --config", async () => {
    const file = path.join(dir, "good.yml");
    await writeFile(file, "queue_rules:\n  - name: fast\n    batch_size: 3\n");
    const o = await parseReplayOptions({ ...base, break: "3,7", limit: "30", config: file });
    expect(o).toMatchObject({ breaks: new Set([3, 7]), limit: 30 });
    expect(o.configYml).toContain("name: fast");
  });

  it.each([
    ["--repo", { repo: "self" }],
    ["--repo", { repo: "a/b/c" }],
    ["--limit", { limit: "0" }],
    ["--limit", { limit: "ten" }],
    ["--break", { break: "2,x" }],
    ["--break", { break: "0" }],
    ["--timeout", { timeout: "-1" }],
    ["--speed", { speed: "0" }],
    ["--ci", { ci: "  " }],
    ["--config", { config: "/nonexistent/config.yml" }],
  ])("refuses a bad %s", async (option, over) => {
    const error = await parseReplayOptions({ ...base, ...over }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReplayError);
    expect((error as Error).message.startsWith(`${option}:`)).toBe(true);
  });

  it("refuses a --config with errors, with their line and column, and one without a queue rule", async () => {
    const bad = path.join(dir, "bad.yml");
    await writeFile(bad, "queue_rules:\n  - name: x\n    batch_size: 500\n");
    await expect(parseReplayOptions({ ...base, config: bad })).rejects.toThrow(
      /^--config: .*bad\.yml: .*batch_size.*line 3/,
    );
    const empty = path.join(dir, "empty.yml");
    await writeFile(empty, "merge_queue:\n  max_parallel_checks: 2\n");
    await expect(parseReplayOptions({ ...base, config: empty })).rejects.toThrow(/has no queue rule/);
  });
});

describe("the replay's files", () => {
  it("gives a default configuration that loads, batches and bisects", async () => {
    const loaded = await loadConfiguration(DEFAULT_REPLAY_CONFIG);
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    const rule = loaded.config.queue_rules[0]!;
    expect(rule.batch_size.max).toBeGreaterThan(1);
    expect(rule.batch_max_failure_resolution_attempts).toBeNull();
    expect(rule.branch_protection_injection_mode).toBe("merge");
  });

  /** Runs the CI file's script in a directory, as the local CI would. */
  const run = (ciYml: string, cwd: string) =>
    spawnSync("bash", ["-c", parse(ciYml).checks[0].run], { cwd, encoding: "utf8" });

  it("runs the command, and fails a commit broken on purpose whatever the command", async () => {
    const work = path.join(dir, "work");
    await mkdir(work, { recursive: true });
    execFileSync("git", ["init", "--quiet", work]);
    expect(run(ciFile("echo checked && true"), work)).toMatchObject({ status: 0, stdout: "checked\n" });
    expect(run(ciFile("exit 3"), work).status).toBe(3);
    const marker = brokenMarker(7);
    await mkdir(path.dirname(path.join(work, marker.path)), { recursive: true });
    await writeFile(path.join(work, marker.path), marker.content);
    const broken = run(ciFile("true"), work);
    expect(broken.status).toBe(1);
    expect(broken.stdout).toContain("broken on purpose by yardmaster replay --break: pull-7");
  });
});

describe("small conversions", () => {
  it.each([
    ["Ada Lovelace", "ada.lovelace@example.com", "ada-lovelace"],
    ["Seed maintainers", "maintainers@users.noreply.example", "maintainers"],
    ["Ünïcode Name", "", "n-code-name"],
    ["", "@", "replay-user"],
    ["x", `${"a".repeat(50)}@e.com`, "a".repeat(39)],
  ])("gives %s <%s> the login %s", (name, email, login) => {
    expect(loginOf(name, email)).toBe(login);
  });

  it("finds the next cursor of a Link header", () => {
    const link =
      '</v1/repos/a/b/logs?per_page=100&cursor=first1>; rel="first", </v1/repos/a/b/logs?per_page=100&cursor=abc_D-1>; rel="next"';
    expect(nextCursor(link)).toBe("abc_D-1");
    expect(nextCursor('</v1/repos/a/b/logs?cursor=x>; rel="first"')).toBeNull();
    expect(nextCursor(null)).toBeNull();
  });
});
