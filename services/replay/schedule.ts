/**
 * When each step of a replay happens (pure; docs/replay.md "Time"): the original relative arrival
 * times, compressed by the speed. `--speed X` replays X times faster than real time; the default,
 * `auto`, picks the speed that spaces arrivals 2 seconds apart on average, so 30 changes arrive
 * within about a minute whatever the history's real pace (never slower than real time).
 */

/** Mean gap between arrivals that `auto` aims for, in milliseconds. */
export const AUTO_GAP_MS = 2_000;

/** A speed: a factor (greater than 0) or "auto". */
export type Speed = number | "auto";

/**
 * Parses `--speed`: "auto" or a number greater than 0 (e.g. 60, 1e6).
 * @throws RangeError naming --speed otherwise
 */
export function parseSpeed(text: string): Speed {
  if (text.trim() === "auto") return "auto";
  const n = Number(text);
  if (text.trim() === "" || !Number.isFinite(n) || n <= 0)
    throw new RangeError(`--speed: "${text}" must be "auto" or a number greater than 0`);
  return n;
}

/** The factor `auto` resolves to for these arrivals (epoch ms): at least 1. */
export function autoSpeed(arrivals: readonly number[]): number {
  if (arrivals.length < 2) return 1;
  const span = Math.max(...arrivals) - Math.min(...arrivals);
  return Math.max(1, span / (AUTO_GAP_MS * (arrivals.length - 1)));
}

/**
 * Delays from the replay's start, in milliseconds, one per arrival (same order): the first
 * arrival is at 0.
 * @returns the delays and the factor used
 */
export function replayDelays(arrivals: readonly number[], speed: Speed): { delays: number[]; factor: number } {
  const factor = speed === "auto" ? autoSpeed(arrivals) : speed;
  if (arrivals.length === 0) return { delays: [], factor };
  const first = Math.min(...arrivals);
  return { delays: arrivals.map((a) => Math.round((a - first) / factor)), factor };
}
