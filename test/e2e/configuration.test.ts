/**
 * Configuration through the API (issue: configuration "Done when"): a newcomer pastes a
 * configuration into POST /configuration-simulator and gets every mistake with its line, the
 * deprecations with dates and the unused sections (products enabled per repository, changed with
 * `yardmaster product`, logged as product.enabled / product.disabled); the same text as
 * .yardmaster.yml drives GET /queues/configuration, which is 422 when the file is invalid; a pull
 * request simulation evaluates the rules against the pull request.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliStdout } from "../support/cli.js";
import { restCall } from "../support/rest-client.js";
import { eventually } from "../support/eventually.js";
import { gitWorkdir, type GitWorkdir } from "../support/git-workdir.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";

let server: ServerProcess;
let work: string;
let src: GitWorkdir;

const VALID = [
  "queue_rules:",
  "  - name: urgent",
  "    merge_conditions:",
  "      - label=urgent",
  "    batch_size: 1",
  "  - name: default",
  "    conditions:",
  "      - check-success=test",
  '    batch_max_wait_time: "1 min 30 s"',
  "pull_request_rules:",
  "  - name: automatic queue",
  "    conditions:",
  "      - label=ready",
  "    actions:",
  "      queue:",
  "merge_protections:",
  "  - name: no wip",
  "    if:",
  "      - base=main",
  "    success_conditions:",
  "      - -title~=WIP",
  "",
].join("\n");

const api = (method: string, url: string, body?: unknown) => restCall(server, method, url, body);

const cli = (...args: string[]) => cliStdout(server.cliEnv, args);

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "ym-e2e-config-"));
  src = await gitWorkdir(path.join(work, "app"));
  await src.commit("Initial commit", { "README.md": "app\n", ".yardmaster.yml": VALID });
  server = await startServerProcess();
  await cli("repo", "add", "acme/app", "--from", src.path);
});
afterAll(async () => {
  await server?.stop();
  await rm(work, { recursive: true, force: true });
});

describe("the configuration simulator", () => {
  it("reports deprecations with their dates and the sections of products not enabled", async () => {
    const res = await api("POST", "/v1/repos/acme/app/configuration-simulator", { service_yml: VALID });
    expect(res.status).toBe(200);
    expect(res.json.message).toBe("The configuration is valid");
    expect(res.json.deprecations).toContainEqual(
      expect.objectContaining({ deadline: "2026-07-31", path_to_field: ["queue_rules", 1, "conditions"] }),
    );
    expect(res.json.unused_sections).toEqual([
      {
        section: "merge_protections",
        product: "merge_protections",
        product_name: "Merge Protections",
        product_url: expect.stringContaining("merge-protections"),
      },
    ]);
  });

  it("follows the products enabled on the repository, and logs the change", async () => {
    expect(await cli("product", "enable", "acme/app", "merge_protections")).toBe(
      "merge_protections enabled on acme/app",
    );
    const res = await api("POST", "/v1/repos/acme/app/configuration-simulator", { service_yml: VALID });
    expect(res.json.unused_sections).toEqual([]);
    expect(await cli("product", "disable", "acme/app", "workflow_automation")).toBe(
      "workflow_automation disabled on acme/app",
    );
    const again = await api("POST", "/v1/repos/acme/app/configuration-simulator", { service_yml: VALID });
    expect(again.json.unused_sections.map((u: { section: string }) => u.section)).toEqual(["pull_request_rules"]);
    const logged = await eventually(async () => {
      const l = await api("GET", "/v1/repos/acme/app/logs?event_type=product.enabled&event_type=product.disabled");
      expect(l.json.events).toHaveLength(2);
      return l.json.events;
    }, 30_000);
    expect(logged.map((e: any) => [e.type, e.metadata.product])).toEqual([
      ["product.disabled", "workflow_automation"],
      ["product.enabled", "merge_protections"],
    ]);
  });

  it("gives every mistake of a text with its path, line and column", async () => {
    const text = "queue_rules:\n  - name: default\n    batch_size: 200\n    merge_conditions:\n      - lable=ready\n";
    const res = await api("POST", "/v1/repos/acme/app/configuration-simulator", { service_yml: text });
    expect(res.status).toBe(422);
    const errors = res.json.details
      .filter((d: { type: string }) => d.type === "field_violation")
      .map((d: { description: string }) => d.description);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/@ queue_rules → item 0 → batch_size \(line 3, column 17\)$/);
    expect(errors[1]).toMatch(/lable.*\(line 5, column 9\)$/);
  });
});

describe("the stored configuration", () => {
  it("drives /queues/configuration: rules in processing order, defaults filled, durations in seconds", async () => {
    await eventually(
      async () =>
        expect((await api("GET", "/v1/repos/acme/app/queues/configuration")).json.configuration).toHaveLength(2),
      30_000,
    );
    const res = await api("GET", "/v1/repos/acme/app/queues/configuration");
    expect(res.json.configuration.map((r: { name: string }) => r.name)).toEqual(["urgent", "default"]);
    expect(res.json.configuration[1].config).toMatchObject({
      batch_max_wait_time: 90,
      batch_size: 1,
      queue_branch_prefix: "yardmaster/merge-queue/",
    });
  });

  it("answers 422 once an invalid file lands on the default branch", async () => {
    await src.commit("Break the configuration", {
      ".yardmaster.yml": "queue_rules:\n  - name: default\n    batch_size: nope\n",
    });
    await cli("repo", "push", "acme/app", "--from", src.path, "--ref", "main", "--branch", "main");
    await eventually(async () => {
      const res = await api("GET", "/v1/repos/acme/app/queues/configuration");
      expect(res.status).toBe(422);
      expect(res.json.code).toBe("failed_precondition");
      expect(res.json.message).toMatch(
        /^the configuration file is invalid: expected an integer .* @ queue_rules → item 0 → batch_size \(line 3, column 17\)$/,
      );
    }, 30_000);
  });

  it("simulates a pull request: which rules match and which queue it would enter", async () => {
    src.git("switch", "--quiet", "-c", "feature", "main");
    await src.commit("A feature", { "feature.txt": "x\n" });
    src.git("switch", "--quiet", "main");
    await cli("repo", "push", "acme/app", "--from", src.path, "--ref", "feature", "--branch", "feature");
    await cli("pr", "open", "acme/app", "--head", "feature", "--base", "main", "--title", "A feature");
    await cli("pr", "label", "acme/app", "1", "--add", "ready");
    const res = await api("POST", "/v1/repos/acme/app/pulls/1/simulator", { service_yml: VALID });
    expect(res.status).toBe(200);
    expect(res.json.title).toMatch(/1 rule matches/);
    expect(res.json.summary).toContain("### Rule: automatic queue (queue)");
  });
});
