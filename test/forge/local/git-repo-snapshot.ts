/**
 * A test repository built once per test file and restored for each test: the setup's commits are
 * written once, and every test starts from an exact copy of the repository at the same path (so
 * the TestRepo's helpers keep working). Starting a git process costs ~5 ms of system time on
 * this machine and a setup of a few commits starts dozens of them.
 */
import { cp, rm } from "node:fs/promises";
import type { FileChange } from "../../../services/forge/local/git/index.js";
import { createTestRepo, type TestRepo } from "./git-fixture.js";

/** The snapshot's life cycle: `build` in beforeAll, `restore` in beforeEach, `dispose` in afterAll. */
export interface TestRepoSnapshot<T> {
  build(): Promise<void>;
  /** A fresh copy of the built repository, and what the setup returned. */
  restore(): Promise<{ t: TestRepo; built: T }>;
  dispose(): Promise<void>;
}

/** A repository created by createTestRepo(`files`), then grown by `setup`. */
export function testRepoSnapshot<T>(
  files: Record<string, FileChange>,
  setup: (t: TestRepo) => Promise<T>,
): TestRepoSnapshot<T> {
  let built: { t: TestRepo; saved: string; value: T } | null = null;
  return {
    async build() {
      const t = await createTestRepo(files);
      const value = await setup(t);
      const saved = `${t.dir}.snapshot`;
      await cp(t.dir, saved, { recursive: true });
      built = { t, saved, value };
    },
    async restore() {
      if (built === null) throw new Error("testRepoSnapshot: restore() before build()");
      await rm(built.t.dir, { recursive: true, force: true });
      await cp(built.saved, built.t.dir, { recursive: true });
      return { t: built.t, built: built.value };
    },
    async dispose() {
      if (built === null) return;
      await rm(built.saved, { recursive: true, force: true });
      await built.t.cleanup();
      built = null;
    },
  };
}
