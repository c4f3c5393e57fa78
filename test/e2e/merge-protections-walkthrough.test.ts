/**
 * docs/merge-protections.md "Try it on the local forge", run as written: the YAML block is saved as
 * `.yardmaster.yml` in an empty directory, the first shell block runs there with bash (`set -e`),
 * `yardmaster` being the checkout's bin/yardmaster.js on the PATH, and YARDMASTER_URL /
 * YARDMASTER_ADMIN_KEY those of a real server process; the second block (the looking commands) is
 * run until it shows what the page promises (the check failing, naming the rule and its condition,
 * and the queue holding the pull request), then the third block (the label), then the second again
 * until the check succeeds and the pull request is merged.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { docBlocks, startWalkthrough, type Walkthrough } from "../support/doc-walkthrough.js";
import { eventually } from "../support/eventually.js";

const SECTION = "## Try it on the local forge";

let walk: Walkthrough;
let look: string;
let release: string;

/** Runs `script` with bash in the walkthrough's directory; its exit code and output. */
const bash = (script: string) => walk.bash(script);

/** The look block's output: `pr show` then the status JSON (its last line). */
async function looked(): Promise<{ page: string; status: any }> {
  const run = await bash(look);
  expect(run.code, run.stderr).toBe(0);
  const lines = run.stdout.trimEnd().split("\n");
  return { page: lines.slice(0, -1).join("\n"), status: JSON.parse(lines.at(-1)!) };
}

beforeAll(async () => {
  const [config] = await docBlocks("merge-protections.md", SECTION, "yaml");
  const [setUp, looking, labelling] = await docBlocks("merge-protections.md", SECTION, "sh");
  if (!config || !setUp || !looking || !labelling) throw new Error("the section lost its YAML block or a sh block");
  look = looking;
  release = labelling;
  walk = await startWalkthrough({ name: "protections-walkthrough", repository: "gate", config });
  const run = await bash(setUp);
  if (run.code !== 0) throw new Error(`the set-up block failed: ${run.stderr}\n${walk.server.output().slice(-2000)}`);
}, 120_000);

afterAll(async () => {
  await walk?.close();
});

describe("docs/merge-protections.md, tried on the local forge as written", () => {
  it("fails the check and holds the queued pull request, then releases and merges it once labelled", async () => {
    const held = await eventually(
      async () => {
        const seen = await looked();
        expect(seen.page).toMatch(/^ {2}test +success/m);
        expect(seen.page).toMatch(
          /^ {2}Yardmaster Merge Protections +failure +1 merge protection fails +\[yardmaster\]$/m,
        );
        expect(seen.page).toContain("### 🔴 Security review");
        expect(seen.page).toContain("- [ ] `label = security-reviewed`");
        expect(seen.status.batches).toEqual([]);
        expect(seen.status.waiting_pull_requests.map((p: any) => [p.number, p.merge_protections_hold])).toEqual([
          [1, "1 merge protection fails: Security review"],
        ]);
        return seen;
      },
      120_000,
      1_000,
    );
    expect(held.page).toMatch(/^state: +open$/m);

    const labelled = await bash(release);
    expect(labelled.code, labelled.stderr).toBe(0);
    const merged = await eventually(
      async () => {
        const seen = await looked();
        expect(seen.page).toMatch(/^state: +merged$/m);
        return seen;
      },
      120_000,
      1_000,
    );
    expect(merged.page).toMatch(
      /^ {2}Yardmaster Merge Protections +success +The merge protection is satisfied +\[yardmaster\]$/m,
    );
    expect(merged.status.waiting_pull_requests).toEqual([]);
  }, 300_000);
});
