/**
 * Test file order (vitest `sequence.sequencer`): the few files known to take minutes start first,
 * so that on a fresh clone (no timing cache) they do not start last and stretch the run; the rest
 * keep vitest's own order (failed, then slowest, then largest first). Longest-first is the classic
 * way to pack jobs on a few workers (vitest.config.ts runs 3).
 */
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The slowest files, slowest first (seconds in a clean-clone run on the 2-core development machine,
 * 2026-11-25: ~135, ~120, ~100, ~47; before the local forge's git changes of that day they took
 * ~270, ~225, ~165 and ~50, in another order). Forge and runner files of 60-100 s follow by
 * vitest's own timing cache once it exists.
 */
const SLOWEST = [
  "test/e2e/local-forge.test.ts",
  "test/e2e/replay.test.ts",
  "test/e2e/readme-walkthrough.test.ts",
  "test/e2e/crash-recovery.test.ts",
  // Fault tests (docs/reliability.md): servers killed and started again, ~45 s and ~30 s.
  "test/faults/random-kills.test.ts",
  "test/faults/merge-crash.test.ts",
];

function rank(file: TestSpecification): number {
  const i = SLOWEST.findIndex((path) => file.moduleId.replaceAll("\\", "/").endsWith(path));
  return i < 0 ? SLOWEST.length : i;
}

/** vitest's BaseSequencer with {@link SLOWEST} moved to the front. */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    return ordered
      .map((file, index) => ({ file, index }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.index - b.index)
      .map((x) => x.file);
  }
}
