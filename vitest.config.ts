import { defineConfig } from "vitest/config";
import { LongestFirstSequencer } from "./test/support/longest-first-sequencer.js";

// Each test file runs in its own child process (pool "forks"): the embedded ClickHouse engine is a
// native library bound to one data directory per process (DESIGN.md §5). One embedded PostgreSQL
// cluster serves the whole run; every test file creates its own database in it.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    pool: "forks",
    // Most files wait on real processes (servers, git, CI checks), not on the CPU: on a 2-core
    // machine vitest's default (cores - 1 = one worker) ran them one at a time.
    maxWorkers: 3,
    // The minutes-long end-to-end files first (test/support/longest-first-sequencer.ts).
    sequence: { sequencer: LongestFirstSequencer },
    globalSetup: ["test/support/postgres-global-setup.ts"],
    // Generous: the end-to-end tests wait on real processes, and a shared or slow machine can
    // take several times as long as an idle one; a hung test still ends well within CI's budget.
    testTimeout: 180_000,
    hookTimeout: 300_000,
  },
});
