/**
 * The structure rules of `npm run lint:deps` (.dependency-cruiser.cjs) and `npm run lint` (Biome and
 * its plugins in tools/lint/) each refuse a planted violation (docs/architecture.md "Dependency
 * rules"). A small tree of folders is written to a temporary directory, with the project's own
 * configuration files; the real checkers run on it, once clean and once with every violation planted.
 */
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

/** A clean tree: each folder's index and one file, importing only downwards through indexes. */
const CLEAN: Record<string, string> = {
  "services/config/index.ts": "export const limit = 1;\n",
  "services/engine/index.ts":
    'import { limit } from "../config/index.js";\nexport const apply = (now: Date) => [limit, now];\n',
  "services/store/index.ts": 'import pg from "pg";\nexport const pool = () => new pg.Pool();\n',
  "services/runner/index.ts":
    'import type pg from "pg";\nimport { apply } from "../engine/index.js";\nimport { pool } from "../store/index.js";\n' +
    "export const round = (c: pg.ClientBase) => [apply(new Date()), pool(), c, Date.now()];\n",
  "services/simulation/index.ts":
    'import { apply } from "../engine/index.js";\nexport const simulate = (ms: number) => apply(new Date(ms));\n',
  "services/gateway/index.ts": 'import { limit } from "../config/index.js";\nexport const port = limit;\n',
  "services/live/index.ts": "export const streams = 0;\n",
};

/** Each planted violation: the file written over the clean tree, and the rule that must refuse it. */
// biome-ignore format: a table, one row per line
const PLANTED: { rule: string; file: string; text: string }[] = [
  { rule: "floors-engine", file: "services/engine/up.ts", text: 'import { round } from "../runner/index.js";\nexport const up = round;\n' },
  { rule: "floors-store", file: "services/store/sideways.ts", text: 'import { apply } from "../engine/index.js";\nexport const side = apply;\n' },
  { rule: "through-index", file: "services/runner/inside.ts", text: 'import { up } from "../engine/up.js";\nexport const inside = up;\n' },
  { rule: "postgres-in-store", file: "services/live/db.ts", text: 'import pg from "pg";\nexport const client = () => new pg.Client();\n' },
  { rule: "pure-engine-and-config", file: "services/config/files.ts", text: 'import { readFileSync } from "node:fs";\nexport const read = readFileSync;\n' },
  { rule: "pure-engine-and-config", file: "services/simulation/files.ts", text: 'import { readFileSync } from "node:fs";\nexport const read = readFileSync;\n' },
  { rule: "floors-simulation", file: "services/simulation/up.ts", text: 'import { round } from "../runner/index.js";\nexport const up = round;\n' },
  { rule: "gateway-edge", file: "services/gateway/db.ts", text: 'import { pool } from "../store/index.js";\nexport const db = pool;\n' },
  { rule: "known-folder", file: "services/newroom/index.ts", text: 'import { limit } from "../config/index.js";\nexport const x = limit;\n' },
  { rule: "no-circular", file: "services/runner/a.ts", text: 'import { b } from "./b.js";\nexport const a = () => b;\n' },
];
/** The other half of the planted cycle (the cycle is reported once, on the file that starts it). */
const CYCLE_PARTNER = { "services/runner/b.ts": 'import { a } from "./a.js";\nexport const b = () => a;\n' };

let dir: string;

async function writeTree(files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
}

/** Runs dependency-cruiser with the project's rules; the violations as `rule file` lines. */
async function cruise(): Promise<string[]> {
  const bin = path.join(ROOT, "node_modules", ".bin", "depcruise");
  const args = ["services", "--config", ".dependency-cruiser.cjs", "--output-type", "json"];
  const out = await run(bin, args, { cwd: dir, maxBuffer: 64 << 20 }).catch((e) => e);
  const report = JSON.parse(out.stdout) as { summary: { violations: { rule: { name: string }; from: string }[] } };
  return report.summary.violations.map((v) => `${v.rule.name} ${v.from}`);
}

/** Runs Biome's linter with the project's configuration on `files`; the diagnostics' text. */
async function biome(files: string[]): Promise<{ ok: boolean; text: string }> {
  const bin = path.join(ROOT, "node_modules", ".bin", "biome");
  const out = await run(bin, ["lint", "--max-diagnostics=100", ...files], { cwd: dir }).then(
    (r) => ({ ok: true, text: r.stdout + r.stderr }),
    (e) => ({ ok: false, text: `${e.stdout}${e.stderr}` }),
  );
  return out;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "ym-lint-rules-"));
  for (const f of [".dependency-cruiser.cjs", "tsconfig.json", "tools/lint"]) {
    await cp(path.join(ROOT, f), path.join(dir, f), { recursive: true });
  }
  const config = JSON.parse(await readFile(path.join(ROOT, "biome.json"), "utf8"));
  config.vcs = { enabled: false };
  await writeFile(path.join(dir, "biome.json"), JSON.stringify(config));
  await symlink(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  await writeTree(CLEAN);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("lint:deps", () => {
  it("passes a tree that keeps to the floors, type-only driver imports included", async () => {
    expect(await cruise()).toEqual([]);
  });

  it("refuses each planted violation with its own rule, on the planted file", async () => {
    await writeTree({ ...Object.fromEntries(PLANTED.map((p) => [p.file, p.text])), ...CYCLE_PARTNER });
    const found = await cruise();
    for (const p of PLANTED) expect(found).toContain(`${p.rule} ${p.file}`);
    for (const file of [...PLANTED.map((p) => p.file), ...Object.keys(CYCLE_PARTNER)]) await rm(path.join(dir, file));
    await rm(path.join(dir, "services/newroom"), { recursive: true });
  });
});

describe("lint: pure engine, config and simulation", () => {
  const planted = "services/engine/clock.ts";
  const impure = [
    "export const a = () => Date.now();",
    "export const b = () => new Date();",
    "export const c = () => Math.random();",
    "export const d = () => crypto.randomUUID();",
    "export const e = () => setTimeout(() => {}, 1);",
    "export const f = () => performance.now();",
  ];

  it("refuses a clock, randomness or a timer in engine/, config/ and simulation/, once per use", async () => {
    const others = { "services/config/clock.ts": impure[0], "services/simulation/clock.ts": impure[2] };
    await writeTree({ [planted]: `${impure.join("\n")}\n`, ...others });
    const { ok, text } = await biome([planted, ...Object.keys(others)]);
    expect(ok).toBe(false);
    expect(text.match(/are pure: no clock/g)?.length).toBe(impure.length + 2);
    expect(text).toContain("services/simulation/clock.ts");
  });

  it("accepts a date made from an argument there, and the clock elsewhere", async () => {
    await writeTree({ [planted]: "export const at = (ms: number) => new Date(ms);\n" });
    const { ok, text } = await biome([planted, "services/runner/index.ts"]);
    expect(text).not.toMatch(/are pure/);
    expect(ok).toBe(true);
  });
});
