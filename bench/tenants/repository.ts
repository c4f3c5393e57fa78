/**
 * The repository of `npm run bench:tenants`: bench:load's source repository (bench/load/fixture.ts:
 * branches `change-<i>` that each add one file, a CI check that sleeps on the queue's drafts) with
 * a configuration file over 4 KiB, so that the runner loads it in a worker thread as the campaign's
 * repository did: the load the flood made the runner wait for.
 */
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { queueConfig, writeSourceRepository } from "../load/fixture.js";

/** The queue's configuration (bench:load's), after 5 KiB of comments. */
export function largeQueueConfig(): string {
  const comments = Array.from({ length: 100 }, (_, i) => `# ${i}: the rules of this repository, explained at length`);
  return `${comments.join("\n")}\n${queueConfig()}`;
}

/** Writes the source repository under `dir` with `branches` branches and the large configuration. */
export async function writeTenantRepository(dir: string, branches: number, ciSeconds: number): Promise<void> {
  await writeSourceRepository(dir, branches, ciSeconds);
  await writeFile(path.join(dir, ".yardmaster.yml"), largeQueueConfig());
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=Bench", "-c", "user.email=bench@example.com", ...args], {
      cwd: dir,
      env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
    });
  git("add", "-A");
  git("commit", "--quiet", "-m", "A configuration over 4 KiB");
}
