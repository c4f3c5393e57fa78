/**
 * A forge world built once per test file and restored for each test: the setup's git work and
 * database writes run once, and every test starts from an exact copy of their result (the data
 * directory copied back to the same path, which the database records; the database copied from
 * the built one as a template; the clock at the minute the setup left it). Each test still gets
 * a forge of its own, as after a restart, and a fresh event recorder. On this machine starting a
 * process costs ~5 ms of system time, and a setup that pushes a few branches starts dozens of git
 * processes per test.
 */
import { cp, rename, rm } from "node:fs/promises";
import type { FileChange } from "../../../services/forge/local/git/index.js";
import type { LocalForgeDeps } from "../../../services/forge/local/index.js";
import { freshDatabase, type TestDatabase } from "../../support/database.js";
import { bindWidgets, createWorld, widgets, type ForgeWorld, type SourceRepo, type Widgets } from "./forge-fixture.js";

/** One test's copy of the built world. */
export interface RestoredWorld<T> {
  world: ForgeWorld;
  /** acme/widgets, bound to this test's forge. */
  repo: Widgets;
  /** What the setup returned (SHAs, numbers). */
  built: T;
}

/** The snapshot's life cycle: `build` in beforeAll, `restore` in beforeEach, `dispose` in afterAll. */
export interface WorldSnapshot<T> {
  build(): Promise<void>;
  restore(): Promise<RestoredWorld<T>>;
  dispose(): Promise<void>;
}

interface Built<T> {
  template: TestDatabase;
  dir: string;
  saved: string;
  src: SourceRepo & { root: string };
  clockAt: number;
  value: T;
}

/**
 * A world where acme/widgets was imported with `files` on main, then `setup` ran.
 * @param deps the forge's dependencies, as for createWorld (also used by every restored forge)
 */
export function worldSnapshot<T>(
  files: Record<string, FileChange>,
  setup: (world: ForgeWorld, repo: Widgets) => Promise<T>,
  deps: Partial<LocalForgeDeps> = {},
): WorldSnapshot<T> {
  let built: Built<T> | null = null;
  return {
    async build() {
      const world = await createWorld(deps);
      const repo = await widgets(world, files);
      const value = await setup(world, repo);
      const clockAt = world.clock.ticks();
      await world.close();
      const saved = `${world.dir}.snapshot`;
      await rename(world.dir, saved);
      built = { template: world.db, dir: world.dir, saved, src: repo.src, clockAt, value };
    },
    async restore() {
      if (built === null) throw new Error("worldSnapshot: restore() before build()");
      await rm(built.dir, { recursive: true, force: true });
      await cp(built.saved, built.dir, { recursive: true });
      const db = await freshDatabase({ template: built.template.name });
      const world = await createWorld(deps, { db, dir: built.dir, clockAt: built.clockAt });
      return { world, repo: bindWidgets(world, built.src), built: built.value };
    },
    async dispose() {
      if (built === null) return;
      await built.template.drop();
      await rm(built.saved, { recursive: true, force: true });
      await rm(built.dir, { recursive: true, force: true });
      built = null;
    },
  };
}
