import { defineConfig } from "vitest/config";

// Each test file runs in its own child process (pool "forks"): the embedded ClickHouse engine is a
// native library bound to one data directory per process (DESIGN.md §5).
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
