/**
 * The process's logger (docs/observability.md "Logs"): pino, one JSON object per line, or the
 * same records made readable by pino-pretty (a time, the level, the message, then the fields)
 * when stdout is a terminal. `LOG_FORMAT` forces either (`json`, `pretty`; default `auto`).
 * Log lines written while the service starts are held until its banner has said where it listens,
 * so the banner is the first thing `npm start` prints; they are written then, or after
 * {@link START_HOLD_MS} or {@link START_HOLD_LINES} lines, whichever comes first, or as soon as
 * the start fails.
 */
import pino, { type Logger } from "pino";
import { prettyFactory } from "pino-pretty";

/** How log records are written: JSON lines, pretty text, or pretty exactly when stdout is a terminal. */
export type LogFormat = "auto" | "pretty" | "json";

/**
 * Longest time start-up log lines are held back, ms: a cap for a start that hangs (a start that
 * fails releases them at once). A minute, because the embedded PostgreSQL and ClickHouse can take
 * tens of seconds to start on a busy machine, and the banner must still come first.
 */
export const START_HOLD_MS = 60_000;
/** Most start-up log lines held back. */
export const START_HOLD_LINES = 500;

/** Where text goes: process.stdout, or a test's collector. */
export interface TextOut {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** A logger whose start-up lines are held until `release` (see the file header). */
export interface StartLogger {
  logger: Logger;
  /** Writes the held lines and stops holding. Safe to call twice. */
  release(): void;
  /** Whether the records are written pretty. */
  pretty: boolean;
}

/** Whether `format` writes pretty text to `out`. */
export function isPretty(format: LogFormat, out: TextOut): boolean {
  return format === "pretty" || (format === "auto" && out.isTTY === true);
}

/** The logger of `yardmaster serve` at `level`, in `format`, writing to `out`. */
export function createStartLogger(level: string, format: LogFormat, out: TextOut = process.stdout): StartLogger {
  const pretty = isPretty(format, out);
  const render = pretty
    ? prettyFactory({ colorize: out.isTTY === true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" })
    : (line: string) => line;
  let held: string[] | null = [];
  const release = () => {
    if (held === null) return;
    const lines = held;
    held = null;
    clearTimeout(timer);
    for (const line of lines) out.write(render(line));
  };
  const timer = setTimeout(release, START_HOLD_MS);
  timer.unref();
  const destination = {
    write(line: string) {
      if (held === null) out.write(render(line));
      else if (held.push(line) >= START_HOLD_LINES) release();
    },
  };
  return { logger: pino({ level }, destination), release, pretty };
}
