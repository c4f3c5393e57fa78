/**
 * Outgoing webhooks through the real server process (docs/notifications.md), against a receiver
 * this test runs: bodies signed with HMAC-SHA256 and verified by the receiver; retries on 500
 * with the same delivery id and body; nothing lost when Yardmaster is killed and started again;
 * a receiver that never answers slows neither the queue nor another webhook; Slack messages;
 * redelivery; the CLI; the dashboard's page (a real browser: the log, a redelivery from its
 * button); the same access rule as every repository route.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signatureMatches } from "../../services/notifications/index.js";
import { launchBrowser, screenshot, signedInPage } from "../support/browser.js";
import { cliStdout, runCli } from "../support/cli.js";
import { eventually } from "../support/eventually.js";
import { gitWorkdir, type GitWorkdir } from "../support/git-workdir.js";
import { restCall } from "../support/rest-client.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";
import { startWebhookReceiver, type Received, type WebhookReceiver } from "../support/webhook-receiver.js";

let server: ServerProcess;
let receiver: WebhookReceiver;
let work: string;
let src: GitWorkdir;
const SECRET = "s3cret-for-the-test-receiver";

const CONFIG = [
  "queue_rules:",
  "  - name: default",
  "    batch_size: 1",
  "    branch_protection_injection_mode: merge",
  "",
].join("\n");

const cli = (...args: string[]) => cliStdout(server.cliEnv, args);
const body = (r: Received) => JSON.parse(r.body);

async function pullRequest(branch: string): Promise<number> {
  src.git("switch", "--quiet", "-c", branch, "main");
  await src.commit(`Change ${branch}`, { [`${branch}.txt`]: `${branch}\n` });
  src.git("switch", "--quiet", "main");
  await cli("repo", "push", "acme/hooks", "--from", src.path, "--ref", branch, "--branch", branch);
  const out = await cli("pr", "open", "acme/hooks", "--head", branch, "--base", "main", "--title", `Add ${branch}`);
  return Number(/^#(\d+)/.exec(out)![1]);
}

async function addWebhook(path: string, eventTypes: string[], extra: Record<string, unknown> = {}): Promise<string> {
  const res = await restCall(server, "POST", "/v1/repos/acme/hooks/webhooks", {
    url: receiver.url(path),
    event_types: eventTypes,
    secret: SECRET,
    ...extra,
  });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.webhook.id;
}

const deliveries = async (webhookId: string) =>
  (await restCall(server, "GET", `/v1/repos/acme/hooks/webhook-deliveries?webhook_id=${webhookId}`)).json.deliveries;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "ym-e2e-webhooks-"));
  src = await gitWorkdir(path.join(work, "hooks"));
  await src.commit("Initial commit", {
    "README.md": "hooks\n",
    ".yardmaster.yml": CONFIG,
    ".yardmaster/ci.yml": 'checks:\n  - name: test\n    run: "true"\n',
  });
  receiver = await startWebhookReceiver({ "/flaky": { failFirst: 2, status: 500 }, "/slow": "hang" });
  server = await startServerProcess({ YARDMASTER_WEBHOOK_RETRY_SECONDS: "0.3" });
  await cli("repo", "add", "acme/hooks", "--from", src.path);
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  await rm(work, { recursive: true, force: true });
});

describe("webhooks", () => {
  it("sends signed JSON that the receiver verifies, and logs the delivery", async () => {
    const id = await addWebhook("/signed", ["queue.pause.*"]);
    await restCall(server, "PUT", "/v1/repos/acme/hooks/merge-queue/pause", { reason: "release 1.0" });
    const [got] = await eventually(async () => {
      const r = receiver.received("/signed");
      expect(r).toHaveLength(1);
      return r;
    }, 60_000);
    expect(signatureMatches(SECRET, got!.body, got!.headers["x-yardmaster-signature-256"] as string)).toBe(true);
    expect(
      signatureMatches("another secret of 16+", got!.body, got!.headers["x-yardmaster-signature-256"] as string),
    ).toBe(false);
    expect(got!.headers["x-yardmaster-event"]).toBe("queue.pause.create");
    expect(got!.headers["x-yardmaster-hook-id"]).toBe(id);
    expect(got!.headers["content-type"]).toBe("application/json");
    const payload = body(got!);
    expect(payload.webhook_id).toBe(id);
    expect(payload.event).toMatchObject({
      type: "queue.pause.create",
      repository: "acme/hooks",
      pull_request: null,
      outcome: "neutral",
      metadata: { reason: "release 1.0" },
    });
    // The same event the activity log holds.
    await eventually(async () => {
      const log = await restCall(server, "GET", "/v1/repos/acme/hooks/logs?event_type=queue.pause.create");
      expect(log.json.events.map((e: any) => e.id)).toContain(payload.event.id);
    }, 30_000);
    const [delivery] = await eventually(async () => {
      const d = await deliveries(id);
      expect(d[0].state).toBe("delivered");
      return d;
    });
    expect(delivery.id).toBe(got!.headers["x-yardmaster-delivery"]);
    expect(delivery.attempts).toEqual([expect.objectContaining({ attempt: 1, status_code: 200, error: null })]);
  });

  it("retries a 500 with the same delivery id and body until the receiver takes it", async () => {
    const id = await addWebhook("/flaky", ["queue.pause.delete"]);
    await restCall(server, "DELETE", "/v1/repos/acme/hooks/merge-queue/pause");
    const [delivery] = await eventually(async () => {
      const d = await deliveries(id);
      expect(d[0].state).toBe("delivered");
      return d;
    }, 60_000);
    expect(delivery.attempts.map((a: any) => a.status_code)).toEqual([500, 500, 200]);
    expect(delivery.attempts[0].error).toBe("status 500");
    const got = receiver.received("/flaky");
    expect(got).toHaveLength(3);
    expect(new Set(got.map((r) => r.headers["x-yardmaster-delivery"]))).toEqual(new Set([delivery.id]));
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
    expect(got.map((r) => r.headers["x-yardmaster-attempt"])).toEqual(["1", "2", "3"]);
  });

  it("loses nothing when Yardmaster is killed: a delivery due for a retry and an event not yet relayed", async () => {
    receiver.behave("/down", 503);
    const id = await addWebhook("/down", ["queue.pause.*"]);
    await restCall(server, "PUT", "/v1/repos/acme/hooks/merge-queue/pause", { reason: "before the crash" });
    await eventually(async () => expect(receiver.received("/down").length).toBeGreaterThanOrEqual(1), 60_000);
    // An event written right before the kill: relayed (and fanned out) before or after it, once.
    await restCall(server, "DELETE", "/v1/repos/acme/hooks/merge-queue/pause");
    server.child.kill("SIGKILL");
    await new Promise((r) => server.child.once("exit", r));
    receiver.behave("/down", 200);
    await server.restart();
    const got = await eventually(async () => {
      const ok = receiver.received("/down").filter((r) => r.headers["x-yardmaster-event"] !== undefined);
      const types = new Set(ok.map((r) => r.headers["x-yardmaster-event"]));
      expect(types).toEqual(new Set(["queue.pause.create", "queue.pause.delete"]));
      const d = await deliveries(id);
      expect(d.map((x: any) => x.state)).toEqual(["delivered", "delivered"]);
      return d;
    }, 120_000);
    // One delivery per event, each ending with a 200.
    expect(got).toHaveLength(2);
    for (const d of got) expect(d.attempts.at(-1).status_code).toBe(200);
  });

  it("merges while a receiver never answers, and another webhook is served meanwhile", async () => {
    const slow = await addWebhook("/slow", ["*"]);
    const fast = await addWebhook("/merged", ["action.queue.merged"], { format: "slack" });
    const pr = await pullRequest("feature");
    await cli("pr", "comment", "acme/hooks", String(pr), "@yardmaster queue");
    await eventually(async () => {
      const pull = await cli("pr", "show", "acme/hooks", String(pr));
      expect(pull).toMatch(/merged/);
    }, 120_000);
    // The slow receiver had its first request before the merge and never answered any, yet the
    // pull request merged: the queue did not wait for it.
    const mergedAt = await eventually(async () => {
      const log = await restCall(server, "GET", "/v1/repos/acme/hooks/logs?event_type=action.queue.merged");
      expect(log.json.events).toHaveLength(1);
      return Date.parse(log.json.events[0].received_at);
    }, 30_000);
    expect(receiver.received("/slow")[0]!.at).toBeLessThan(mergedAt);
    const [message] = await eventually(async () => {
      const r = receiver.received("/merged");
      expect(r).toHaveLength(1);
      return r;
    }, 60_000);
    expect(body(message!)).toEqual({
      text: expect.stringMatching(new RegExp(`^\\*acme/hooks\\* #${pr} was merged into \`main\` by the merge queue`)),
    });
    expect((await deliveries(fast))[0].state).toBe("delivered");
    expect((await deliveries(slow)).some((d: any) => d.state === "pending")).toBe(true);
    await restCall(server, "DELETE", `/v1/repos/acme/hooks/webhooks/${slow}`);
  });

  it("is managed with the CLI: add, list, deliveries, redeliver, remove", async () => {
    const added = await runCli(
      ["webhook", "add", "acme/hooks", "--url", receiver.url("/cli"), "--event", "queue.pause.create,product.*"],
      server.cliEnv,
    );
    expect(added.code, added.stderr).toBe(0);
    const id = added.stdout.split(" ")[0]!;
    expect(added.stdout).toContain(`json  ${receiver.url("/cli")}  queue.pause.create,product.*`);
    expect(added.stderr).toMatch(/^signing secret \(shown only now\): whsec_[\w-]{43}\n$/);
    expect(await cli("webhook", "list", "acme/hooks")).toContain(id);
    await restCall(server, "PUT", "/v1/repos/acme/hooks/merge-queue/pause", { reason: "cli" });
    await eventually(async () => expect(receiver.received("/cli")).toHaveLength(1), 60_000);
    const log = await eventually(async () => {
      const text = await cli("webhook", "deliveries", "acme/hooks", "--webhook", id);
      expect(text).toMatch(/delivered {2}queue\.pause\.create/);
      return text;
    });
    expect(log).toMatch(/attempt 1 {2}\S+Z {2}\d+ ms {2}status 200/);
    const delivery = log.split(" ")[0]!;
    expect(await cli("webhook", "redeliver", "acme/hooks", delivery)).toContain(`delivery ${delivery} is due again`);
    await eventually(async () => expect(receiver.received("/cli")).toHaveLength(2), 60_000);
    const [first, again] = receiver.received("/cli");
    expect(again!.headers["x-yardmaster-delivery"]).toBe(first!.headers["x-yardmaster-delivery"]);
    expect(again!.body).toBe(first!.body);
    await eventually(async () =>
      expect(await cli("webhook", "deliveries", "acme/hooks", "--webhook", id)).toMatch(/attempt 2 \(redelivery\)/),
    );
    expect(await cli("webhook", "remove", "acme/hooks", id)).toBe(`webhook ${id} removed`);
    expect(await cli("webhook", "list", "acme/hooks")).not.toContain(id);
    await restCall(server, "DELETE", "/v1/repos/acme/hooks/merge-queue/pause");
  });

  it("refuses bad subscriptions naming the field, and keeps each repository's webhooks to itself", async () => {
    const bad = await restCall(server, "POST", "/v1/repos/acme/hooks/webhooks", {
      url: "ftp://example.com/x",
      event_types: ["action.queue.mergd"],
      secret: "short",
    });
    expect(bad.status).toBe(422);
    const fields = bad.json.details.filter((d: any) => d.type === "field_violation").map((v: any) => v.field);
    expect(fields).toEqual(expect.arrayContaining(["url", "event_types[0]", "secret"]));
    const id = await addWebhook("/private", ["*"]);
    const other = await cli("token", "create", "--repo", "acme/other");
    const own = await cli("token", "create", "--repo", "acme/hooks");
    const list = (token: string) =>
      fetch(`${server.url}/v1/repos/acme/hooks/webhooks`, { headers: { authorization: `Bearer ${token}` } });
    expect((await list(other)).status).toBe(403);
    const mine = await list(own);
    expect(mine.status).toBe(200);
    expect(((await mine.json()) as any).webhooks.map((w: any) => w.id)).toContain(id);
    // Another repository's route does not find this webhook.
    const elsewhere = await restCall(server, "DELETE", `/v1/repos/acme/other/webhooks/${id}`);
    expect(elsewhere.status).toBe(404);
    expect(JSON.stringify((await restCall(server, "GET", "/v1/repos/acme/hooks/webhooks")).json)).not.toContain(SECRET);
  });

  it("shows the webhooks and their delivery log on the dashboard, and redelivers from it", async () => {
    const id = await addWebhook("/page", ["queue.pause.create"]);
    await restCall(server, "PUT", "/v1/repos/acme/hooks/merge-queue/pause", { reason: "for the page" });
    await eventually(async () => expect(receiver.received("/page")).toHaveLength(1), 60_000);
    const browser = await launchBrowser();
    try {
      const { page } = await signedInPage(browser, server.url, server.adminKey);
      await page.goto(`${server.url}/repos/acme/hooks/webhooks`);
      await page.getByRole("heading", { name: "Webhooks" }).waitFor();
      await page.getByRole("link", { name: "Webhooks" }).waitFor();
      const hookRow = page.locator(`tr[data-webhook="${id}"]`);
      await hookRow.waitFor();
      expect(await hookRow.textContent()).toContain(receiver.url("/page"));
      const [delivery] = await deliveries(id);
      const row = page.locator(`tr[data-delivery="${delivery.id}"]`);
      await row.waitFor();
      expect(await row.textContent()).toMatch(/queue\.pause\.create.*delivered.*1 attempt: status 200/);
      await screenshot(page, "webhooks");
      await row.getByRole("button", { name: "Redeliver" }).click();
      await eventually(async () => expect(receiver.received("/page")).toHaveLength(2), 60_000);
      await row.getByText("2 attempts: status 200").waitFor({ timeout: 30_000 });
      await row.getByText("2 attempts").click();
      await row.getByText(/\(redelivery\)/).waitFor();
    } finally {
      await browser.close();
      await restCall(server, "DELETE", "/v1/repos/acme/hooks/merge-queue/pause");
    }
  });
});
