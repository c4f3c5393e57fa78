/**
 * Keeps the queue of `npm run bench:load` at the same depth while it is worked: every second it
 * counts the pull requests merged (in the bare repository, without asking the server) and opens
 * and queues new ones to make up for them, so every window measures a queue of the same size
 * (the runner's rounds cost more with a longer queue) and the queue never runs dry.
 */
import type { Client } from "@connectrpc/connect";
import type { ForgeService } from "../../gen/yardmaster/v1/forge_pb.js";
import { mergedCount, openAndQueue } from "./fixture.js";

/** A running feeder: the numbers of every pull request it opened so far, and how to stop it. */
export interface Feeder {
  numbers: number[];
  stop(): Promise<void>;
}

/**
 * Starts feeding: `opened` pull requests are already queued (`numbers`), branches up to
 * `branches` exist, and the queue is kept `depth` deep (at most 10 opened per second).
 */
export function startFeeder(opts: {
  forge: Client<typeof ForgeService>;
  repo: { owner: string; repository: string };
  gitDir: string;
  numbers: number[];
  branches: number;
  depth: number;
}): Feeder {
  const numbers = [...opts.numbers];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      await new Promise((r) => setTimeout(r, 1000));
      const waiting = numbers.length - (await mergedCount(opts.gitDir));
      const more = Math.min(opts.depth - waiting, 10, opts.branches - numbers.length);
      if (more > 0 && !stopped)
        numbers.push(...(await openAndQueue(opts.forge, opts.repo, numbers.length + 1, numbers.length + more)));
    }
  })();
  return {
    numbers,
    async stop() {
      stopped = true;
      await loop;
    },
  };
}
