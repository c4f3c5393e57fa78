/**
 * How a running replay shows its progress on stderr (docs/replay.md "While it runs"): a progress
 * bar on a terminal (cli-progress); otherwise (a file, a pipe, CI's log) one line each time a
 * change is resolved, and at least every 10 s while nothing is, so that a log shows the replay
 * moving without the bar's control characters.
 */
import { Presets, SingleBar } from "cli-progress";

/** The counts shown. */
export interface ProgressCounts {
  resolved: number;
  queued: number;
  merged: number;
  dequeued: number;
}

/** A progress display: `update` with the latest counts, `stop` at the end. */
export interface ReplayProgress {
  update(c: ProgressCounts): void;
  stop(): void;
}

/** Most seconds between two progress lines off a terminal. */
export const PROGRESS_LINE_SECONDS = 10;

/** The progress line off a terminal. */
export function progressLine(c: ProgressCounts, total: number, seconds: number): string {
  return `replay: ${c.resolved}/${total} changes resolved, ${c.queued} in queue, ${c.merged} merged, ${c.dequeued} dequeued (${Math.round(seconds)} s)\n`;
}

/** Starts the display of `total` changes on `stream`; `now` in ms (Date.now; fixed in tests). */
export function startProgress(
  stream: Pick<NodeJS.WriteStream, "write"> & { isTTY?: boolean },
  total: number,
  now: () => number = Date.now,
): ReplayProgress {
  if (stream.isTTY) {
    const bar = new SingleBar(
      {
        stream: stream as NodeJS.WriteStream,
        format:
          "replaying |{bar}| {value}/{total} changes resolved | {queued} in queue, {merged} merged, {dequeued} dequeued",
        hideCursor: true,
      },
      Presets.shades_classic,
    );
    bar.start(total, 0, { queued: 0, merged: 0, dequeued: 0 });
    return {
      update: (c) => bar.update(c.resolved, { queued: c.queued, merged: c.merged, dequeued: c.dequeued }),
      stop: () => bar.stop(),
    };
  }
  const started = now();
  let last: ProgressCounts | null = null;
  let lastAt = started;
  const write = (c: ProgressCounts) => {
    stream.write(progressLine(c, total, (now() - started) / 1000));
    last = c;
    lastAt = now();
  };
  write({ resolved: 0, queued: 0, merged: 0, dequeued: 0 });
  return {
    update(c) {
      if (last === null || c.resolved !== last.resolved || now() - lastAt >= PROGRESS_LINE_SECONDS * 1000) write(c);
      else last = c;
    },
    stop() {
      if (last !== null) write(last);
    },
  };
}
