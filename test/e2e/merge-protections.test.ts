/**
 * The built-in merge protections end to end on the local forge (docs/merge-protections.md), against
 * one real server process: `Depends-On` across two local repositories (the dependent is held, with
 * its check pending, until the pull request of the other repository merges through that
 * repository's queue, then released and merged); `Merge-After` released by the clock alone across a
 * restart (no event reaches the pull request after the restart); `Configuration changed` failing
 * with the file's errors. The custom rule is the walkthrough's (merge-protections-walkthrough.test.ts).
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually.js";
import { DEFAULT_FILES, forgeScenario } from "../support/forge-scenario.js";
import { restCall } from "../support/rest-client.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";

const CHECK = "Yardmaster Merge Protections";
const CONFIG = DEFAULT_FILES[".yardmaster.yml"];

/** A merge action, and auto-merge queueing pull requests that touch `auto/`, both behind a protection. */
const AUTO_CONFIG = `${CONFIG}pull_request_rules:
  - name: automerge
    conditions: [label=automerge]
    actions:
      merge: {method: merge}
merge_protections_settings:
  auto_merge_conditions: ["files~=^auto/"]
merge_protections:
  - name: Reviewed
    if: []
    success_conditions: [label=reviewed]
`;
/** Auto-merge without the merge queue: merged directly once the protections succeed. */
const DIRECT_CONFIG = `merge_protections_settings:
  auto_merge_conditions: [label=ship]
merge_protections:
  - name: Reviewed
    if: []
    success_conditions: [label=reviewed]
`;

let server: ServerProcess;
let work: string;
let f: ReturnType<typeof forgeScenario>;

/** The pull request's state and its merge protections check (or undefined). */
async function pull(repo: string, n: number): Promise<{ state: string; check: any }> {
  const pr = await f.pull(repo, n);
  return { state: pr.state, check: pr.checks.find((c: any) => c.name === CHECK) };
}
const queue = (repo: string, n: number) => f.comment(repo, n, "@yardmaster queue");
const opened = (...args: Parameters<typeof f.opened>) => f.opened(...args);
const inStatus = (repo: string, n: number) => f.inStatus(repo, n);

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "ym-e2e-protections-"));
  server = await startServerProcess();
  f = forgeScenario(() => server, work);
  // Four repositories, independent of each other: made at the same time.
  const protectedRepository = async (name: string, files: Record<string, string> = {}) => {
    await f.repository(name, files);
    await f.cli("product", "enable", name, "merge_protections");
  };
  await Promise.all([
    f.repository("acme/api"),
    protectedRepository("acme/app"),
    protectedRepository("acme/auto", { ".yardmaster.yml": AUTO_CONFIG }),
    protectedRepository("acme/direct", { ".yardmaster.yml": DIRECT_CONFIG }).then(() =>
      f.cli("product", "disable", "acme/direct", "merge_queue"),
    ),
  ]);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe("built-in merge protections on the local forge", () => {
  it("Depends-On across two repositories: held until the other repository's pull request merges", async () => {
    const schema = await opened("acme/api", "schema", { "schema.sql": "create table t;\n" });
    const feature = await opened(
      "acme/app",
      "feature",
      { "feature.txt": "1\n" },
      "Uses the schema.\n\nDepends-On: acme/api#1\n",
    );
    expect(schema).toBe(1);
    await queue("acme/app", feature);
    const held = await eventually(async () => {
      const p = await pull("acme/app", feature);
      expect(p.check).toMatchObject({
        state: "pending",
        description: "Waiting for 1 merge protection",
        app: "yardmaster",
      });
      const entry = await inStatus("acme/app", feature);
      expect(entry?.merge_protections_hold).toBe("Waiting for 1 merge protection: Depends-On");
      return p;
    }, 60_000);
    expect(held.check.output).toContain("- [ ] acme/api#1 schema: not merged yet");
    expect((await pull("acme/app", feature)).state).toBe("open");

    await queue("acme/api", schema);
    await eventually(async () => expect((await pull("acme/api", schema)).state).toBe("merged"), 60_000);
    const released = await eventually(async () => {
      const p = await pull("acme/app", feature);
      expect(p.state).toBe("merged");
      return p;
    }, 60_000);
    expect(released.check).toMatchObject({ state: "success", description: "The merge protection is satisfied" });
    expect(released.check.output).toContain("- [X] acme/api#1 schema: merged");
  }, 180_000);

  it("Merge-After: released by the clock alone, across a restart", async () => {
    const after = new Date(Date.now() + 15_000);
    const n = await opened(
      "acme/app",
      "later",
      { "later.txt": "1\n" },
      `Ship it later.\n\nMerge-After: ${after.toISOString()}\n`,
    );
    await queue("acme/app", n);
    await eventually(async () => {
      const p = await pull("acme/app", n);
      expect(p.check).toMatchObject({ state: "pending", description: "Waiting for 1 merge protection" });
      expect((await inStatus("acme/app", n))?.merge_protections_hold).toBe(
        "Waiting for 1 merge protection: Merge-After",
      );
    }, 60_000);
    // Nothing in this process remembers the instant: the timer is a row of queue_timers.
    await server.restart();
    expect(Date.now()).toBeLessThan(after.getTime() + 60_000);
    const merged = await eventually(async () => {
      const p = await pull("acme/app", n);
      expect(p.state).toBe("merged");
      return p;
    }, 90_000);
    expect(merged.check).toMatchObject({ state: "success" });
    // The log has both reports once the relay carried the second to ClickHouse.
    await eventually(async () => {
      const url = `/v1/repos/acme/app/logs?pull_request=${n}&event_type=action.post_check&per_page=10`;
      const events = (await restCall(server, "GET", url)).json.events;
      expect(events.map((e: any) => [e.trigger, e.metadata.conclusion]).reverse()).toEqual([
        ["Merge protections", null],
        ["Merge protections", "success"],
      ]);
    }, 30_000);
  }, 240_000);

  it("Configuration changed: fails with the errors of the file as the pull request leaves it", async () => {
    const broken = await opened("acme/app", "config-broken", {
      ".yardmaster.yml": "queue_rules:\n  - batch_size: 2\n",
    });
    const fixed = await opened("acme/app", "config-fine", { ".yardmaster.yml": `${CONFIG}    batch_size: 2\n` });
    const failing = await eventually(async () => {
      const p = await pull("acme/app", broken);
      expect(p.check).toMatchObject({ state: "failure", description: "1 merge protection fails" });
      return p;
    }, 60_000);
    expect(failing.check.output).toContain("### 🔴 Configuration changed");
    expect(failing.check.output).toMatch(/- \[ \] `\.yardmaster\.yml` loads without error:\n {2}- .*name/);
    await eventually(async () => {
      const p = await pull("acme/app", fixed);
      expect(p.check).toMatchObject({ state: "success", description: "The merge protection is satisfied" });
      expect(p.check.output).toContain("- [X] `.yardmaster.yml` loads without error");
    }, 60_000);
  }, 120_000);

  it("the pull request simulator reports the protections' verdict under the configuration simulated", async () => {
    const n = await opened("acme/app", "simulated", { "auth/x.txt": "1\n" });
    const yml = `${CONFIG}merge_protections:\n  - name: Auth\n    if: ["files~=^auth/"]\n    success_conditions: [label=ok]\n`;
    const res = await restCall(server, "POST", `/v1/repos/acme/app/pulls/${n}/simulator`, { service_yml: yml });
    expect(res.status).toBe(200);
    expect(res.json.summary).toContain("### Merge protections\n\n**1 merge protection fails**\n\n### 🔴 Auth");
    expect(res.json.summary).toContain("- [ ] `label = ok`");
  });
});

describe("merging behind merge protections", () => {
  it("a pull_request_rules merge waits for the protections, then merges", async () => {
    const n = await opened("acme/auto", "by-rule", { "rule.txt": "1\n" });
    await f.label("acme/auto", n, ["automerge"]);
    await eventually(
      async () => expect((await pull("acme/auto", n)).check).toMatchObject({ state: "failure" }),
      60_000,
    );
    await f.comment("acme/auto", n, "@yardmaster refresh");
    await eventually(async () => {
      const pr = await f.pull("acme/auto", n);
      expect(pr.comments.some((c: any) => String(c.body).startsWith("The conditions of this pull request"))).toBe(true);
    }, 60_000);
    expect((await pull("acme/auto", n)).state).toBe("open");
    await f.label("acme/auto", n, ["reviewed"]);
    await eventually(async () => expect((await pull("acme/auto", n)).state).toBe("merged"), 60_000);
  }, 120_000);

  it("auto_merge_conditions queue a matching pull request, which merges once its protections succeed", async () => {
    const n = await opened("acme/auto", "auto-queued", { "auto/a.txt": "1\n" });
    await eventually(async () => {
      expect((await inStatus("acme/auto", n))?.merge_protections_hold).toBe("1 merge protection fails: Reviewed");
    }, 60_000);
    await f.label("acme/auto", n, ["reviewed"]);
    await eventually(async () => expect((await pull("acme/auto", n)).state).toBe("merged"), 60_000);
  }, 120_000);

  it("without the merge queue, auto_merge_conditions merge directly once the protections succeed", async () => {
    const n = await opened("acme/direct", "shipped", { "ship.txt": "1\n" });
    await f.label("acme/direct", n, ["ship"]);
    await eventually(
      async () => expect((await pull("acme/direct", n)).check).toMatchObject({ state: "failure" }),
      60_000,
    );
    expect((await pull("acme/direct", n)).state).toBe("open");
    await f.label("acme/direct", n, ["reviewed"]);
    await eventually(async () => expect((await pull("acme/direct", n)).state).toBe("merged"), 60_000);
  }, 120_000);
});
