/**
 * docs/workflow-automation.md "Try it on the local forge", run as written:
 * the YAML block is saved as `.yardmaster.yml` in an empty directory, the first shell block runs
 * there with bash (`set -e`), `yardmaster` being the checkout's bin/yardmaster.js on the PATH, and
 * YARDMASTER_URL / YARDMASTER_ADMIN_KEY those of a real server process; the second block (the
 * looking commands) is run until it shows what the page promises: the label swapped, the comment
 * rendered, the review requested, the squash merge, the backport pull request, and the events.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { docBlocks, startWalkthrough, type Walkthrough } from "../support/doc-walkthrough.js";
import { eventually } from "../support/eventually.js";

const SECTION = "## Try it on the local forge";

let walk: Walkthrough;
let look: string;

/** Runs `script` with bash in the walkthrough's directory; its exit code and output. */
const bash = (script: string) => walk.bash(script);

beforeAll(async () => {
  const [config] = await docBlocks("workflow-automation.md", SECTION, "yaml");
  const [setUp, looking] = await docBlocks("workflow-automation.md", SECTION, "sh");
  if (!config || !setUp || !looking) throw new Error("the section lost its YAML block or one of its two sh blocks");
  look = looking;
  walk = await startWalkthrough({ name: "workflow-walkthrough", repository: "widgets", config });
  const run = await bash(setUp);
  if (run.code !== 0) throw new Error(`the set-up block failed: ${run.stderr}\n${walk.server.output().slice(-2000)}`);
}, 120_000);

afterAll(async () => {
  await walk?.close();
});

describe("docs/workflow-automation.md, tried on the local forge as written", () => {
  it("labels, comments, requests a review, squash-merges and backports, as pr show, pr list and /logs show", async () => {
    const seen = await eventually(
      async () => {
        const run = await bash(look);
        expect(run.code, run.stderr).toBe(0);
        const out = run.stdout;
        expect(out).toMatch(/^state: +merged$/m);
        expect(out).toMatch(/^labels: +automerge, backport-1\.x, triaged$/m);
        expect(out).toMatch(/^review requested: +carol$/m);
        expect(out).toContain("Thanks @alice for #1!");
        // Shown as a forge renders it: the comment's hidden idempotency marker is not printed.
        expect(out).not.toContain("<!--");
        // The log's event, once the relay carried it to ClickHouse (about a second after the action).
        expect(out.trim().split("\n").at(-1)).toMatch(/"type":"action\.backport"/);
        expect(out).toMatch(
          /^#2 +open +yardmaster\/bp\/release-1\.x\/pr-1 -> release-1\.x +Add a widget \(backport #1\)/m,
        );
        return run.stdout;
      },
      120_000,
      1_000,
    );
    // The backport event, from the curl line: its target and the pull request it opened.
    const json = JSON.parse(seen.trim().split("\n").at(-1)!);
    expect(json.events).toHaveLength(1);
    expect(json.events[0]).toMatchObject({ type: "action.backport", pull_request: 1 });
    expect(json.events[0].metadata).toMatchObject({ to: "release-1.x", conflicts: false });
    const backport = Number(json.events[0].metadata.pull_request_number);
    expect(backport).toBe(2);
  }, 150_000);
});
