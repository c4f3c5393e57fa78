/**
 * The product switches during activity, against one real server process (docs/configuration.md
 * "Products"): each product switched off while pull requests are in flight acts no more, and
 * switched on again resumes without losing what happened meanwhile. The runner works its inbox in
 * order, so the reply to a `@yardmaster refresh` comment posted after an event proves that event
 * was handled: "nothing acted" is asserted after that mark, not after a sleep.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually.js";
import { forgeScenario } from "../support/forge-scenario.js";
import { restCall } from "../support/rest-client.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";

const REPO = "acme/switch";
const CONFIG = [
  "queue_rules:",
  "  - name: default",
  // Queued at once, checked with its CI: a slow pull request stays queued while its check runs.
  "    branch_protection_injection_mode: merge",
  "pull_request_rules:",
  "  - name: triage",
  "    conditions: [label=triage]",
  "    actions:",
  "      label: {add: [triaged]}",
  "merge_protections:",
  "  - name: Reviewed",
  "    if: [label=gated]",
  "    success_conditions: [label=reviewed]",
  "",
].join("\n");

let server: ServerProcess;
let work: string;
let f: ReturnType<typeof forgeScenario>;

const product = (verb: "enable" | "disable", name: string) => f.cli("product", verb, REPO, name);
const comments = async (n: number) => (await f.pull(REPO, n)).comments.map((c: any) => String(c.body));
const CHECK = "Yardmaster Merge Protections";

/** Comments `@yardmaster refresh` on `n` and waits for its reply: every input before it was handled. */
async function handled(n: number): Promise<void> {
  const before = (await comments(n)).filter((b: string) => b.startsWith("The conditions of this pull request")).length;
  await f.comment(REPO, n, "@yardmaster refresh");
  await eventually(async () => {
    const replies = (await comments(n)).filter((b: string) => b.startsWith("The conditions of this pull request"));
    expect(replies.length).toBe(before + 1);
  }, 60_000);
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "ym-e2e-switches-"));
  server = await startServerProcess();
  f = forgeScenario(() => server, work);
  await f.repository(REPO, {
    ".yardmaster.yml": CONFIG,
    ".yardmaster/ci.yml": 'checks:\n  - name: test\n    run: "test ! -e SLOW || sleep 20"\n',
  });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe("products switched off and on during activity", () => {
  it("merge_queue: off dequeues what is queued and refuses commands with a comment; on, the queue works again", async () => {
    const slow = await f.opened(REPO, "slow", { "SLOW/x": "1\n" });
    await f.comment(REPO, slow, "@yardmaster queue");
    await eventually(async () => expect(await f.inStatus(REPO, slow)).toBeDefined(), 60_000);
    await product("disable", "merge_queue");
    await eventually(async () => expect(await f.inStatus(REPO, slow)).toBeUndefined(), 60_000);
    await eventually(async () => {
      const res = await restCall(
        server,
        "GET",
        `/v1/repos/${REPO}/logs?pull_request=${slow}&event_type=action.queue.leave`,
      );
      expect(res.json.events.map((e: any) => [e.metadata.dequeue_code, e.metadata.reason, e.trigger])).toEqual([
        ["PR_DEQUEUED", "The merge queue was disabled on this repository", "Product: merge_queue disabled"],
      ]);
    }, 30_000);
    const refused = await f.opened(REPO, "refused", { "refused.txt": "1\n" });
    await f.comment(REPO, refused, "@yardmaster queue");
    await eventually(async () => {
      expect(
        (await comments(refused)).some((b: string) => b.startsWith("The merge queue is disabled on this repository")),
      ).toBe(true);
    }, 60_000);
    expect(await f.inStatus(REPO, refused)).toBeUndefined();
    await product("enable", "merge_queue");
    await f.comment(REPO, refused, "@yardmaster queue");
    await eventually(async () => expect((await f.pull(REPO, refused)).state).toBe("merged"), 90_000);
    expect((await f.pull(REPO, slow)).state).toBe("open");
  }, 240_000);

  it("workflow_automation: off, no rule acts; on, what became true meanwhile acts once", async () => {
    const n = await f.opened(REPO, "triage-me", { "triage.txt": "1\n" });
    await product("disable", "workflow_automation");
    await f.label(REPO, n, ["triage"]);
    await handled(n);
    expect((await f.pull(REPO, n)).labels).toEqual(["triage"]);
    await product("enable", "workflow_automation");
    await eventually(async () => expect((await f.pull(REPO, n)).labels).toEqual(["triage", "triaged"]), 60_000);
  }, 180_000);

  it("merge_protections: off, no check and no hold; on, every open pull request gets its check", async () => {
    await product("enable", "merge_protections");
    const gated = await f.opened(REPO, "gated", { "gated.txt": "1\n" });
    await f.label(REPO, gated, ["gated"]);
    await f.comment(REPO, gated, "@yardmaster queue");
    await eventually(async () => {
      expect((await f.inStatus(REPO, gated))?.merge_protections_hold).toBe("1 merge protection fails: Reviewed");
    }, 60_000);
    await product("disable", "merge_protections");
    // Released at once: nothing holds the queue while the product is off.
    await eventually(async () => expect((await f.pull(REPO, gated)).state).toBe("merged"), 90_000);
    const quiet = await f.opened(REPO, "quiet", { "quiet.txt": "1\n" });
    await handled(quiet);
    expect((await f.pull(REPO, quiet)).checks.map((c: any) => c.name)).not.toContain(CHECK);
    await product("enable", "merge_protections");
    await eventually(async () => {
      const check = (await f.pull(REPO, quiet)).checks.find((c: any) => c.name === CHECK);
      expect(check).toMatchObject({ state: "success", description: "No merge protection applies" });
    }, 60_000);
  }, 240_000);
});
