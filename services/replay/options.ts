/**
 * The options of `yardmaster replay` checked before anything is created (docs/replay.md
 * "Options"): every problem is a {@link ReplayError} naming the option, and nothing reaches the
 * service. `--config` is loaded with the configuration module, so a bad file is reported with its
 * line and column before the replay starts.
 */
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { formatConfigError, loadConfiguration } from "../config/index.js";
import { ReplayError } from "./errors.js";
import { parseFlaky, type FlakyTests } from "./flaky-tests.js";
import { ciFile, DEFAULT_CI_COMMAND, DEFAULT_REPLAY_CONFIG } from "./replay-files.js";
import { parseSpeed, type Speed } from "./schedule.js";

/** The options as commander gives them (text). */
export interface RawReplayOptions {
  from: string;
  repo: string;
  base?: string;
  range?: string;
  limit?: string;
  ci?: string;
  config?: string;
  speed?: string;
  break?: string;
  timeout?: string;
  json?: boolean;
  flaky?: string;
  flakyTests?: string;
  quarantinedTests?: string;
}

/** Checked options. */
export interface ReplayOptions {
  /** Absolute path of the history's repository. */
  from: string;
  repo: { owner: string; repository: string };
  base: string;
  range?: string;
  limit: number | null;
  /** The CI file's text and the configuration's. */
  ciYml: string;
  configYml: string;
  speed: Speed;
  /** Replay orders (1-based) of the pull requests to break. */
  breaks: Set<number>;
  /** Give up after this long, in milliseconds. */
  timeoutMs: number;
  /** `--flaky`: the flaky tests and their rate; null without it. */
  flaky: FlakyTests | null;
  json: boolean;
}

const POSITIVE = /^[1-9][0-9]{0,8}$/;

/**
 * Checks and completes the options (reads `--config`).
 * @throws ReplayError naming the option
 */
export async function parseReplayOptions(raw: RawReplayOptions): Promise<ReplayOptions> {
  const parts = raw.repo.split("/");
  if (parts.length !== 2 || !/^[A-Za-z0-9-]+$/.test(parts[0]!) || !/^[\w.-]+$/.test(parts[1]!)) {
    throw new ReplayError(`--repo: "${raw.repo}" must be written owner/name`);
  }
  if (raw.limit !== undefined && !POSITIVE.test(raw.limit))
    throw new ReplayError(`--limit: "${raw.limit}" must be a positive whole number`);
  const breaks = new Set<number>();
  for (const item of raw.break === undefined ? [] : raw.break.split(",")) {
    if (!POSITIVE.test(item.trim()))
      throw new ReplayError(`--break: "${item}" is not a pull request's replay order (1, 2, ...)`);
    breaks.add(Number(item.trim()));
  }
  if (raw.timeout !== undefined && !POSITIVE.test(raw.timeout))
    throw new ReplayError(`--timeout: "${raw.timeout}" must be a positive whole number of seconds`);
  let speed: Speed;
  try {
    speed = parseSpeed(raw.speed ?? "auto");
  } catch (error) {
    throw new ReplayError((error as Error).message);
  }
  const flaky = parseFlaky(raw);
  // One run counter per replay: a repository name may be replayed again on another service.
  const counter = `${parts[0]}-${parts[1]}-${randomUUID()}`;
  let ciYml: string;
  try {
    ciYml = ciFile(raw.ci ?? DEFAULT_CI_COMMAND, flaky === null ? null : { tests: flaky, counter });
  } catch (error) {
    throw new ReplayError((error as Error).message);
  }
  return {
    from: path.resolve(raw.from),
    repo: { owner: parts[0]!, repository: parts[1]! },
    base: raw.base ?? "main",
    range: raw.range,
    limit: raw.limit === undefined ? null : Number(raw.limit),
    ciYml,
    configYml: await readConfig(raw.config),
    speed,
    breaks,
    timeoutMs: Number(raw.timeout ?? 1800) * 1000,
    json: raw.json ?? false,
    flaky,
  };
}

/** The configuration text: the file (validated), or the default. @throws ReplayError naming --config */
async function readConfig(file: string | undefined): Promise<string> {
  if (file === undefined) return DEFAULT_REPLAY_CONFIG;
  const text = await readFile(file, "utf8").catch(() => {
    throw new ReplayError(`--config: cannot read ${file}`);
  });
  const loaded = await loadConfiguration(text);
  if (!loaded.ok) throw new ReplayError(`--config: ${file}: ${loaded.errors.map(formatConfigError).join("; ")}`);
  if (loaded.config.queue_rules.length === 0)
    throw new ReplayError(`--config: ${file} has no queue rule: nothing could be queued`);
  return text;
}
