/**
 * The dashboard's states, each explained (docs/dashboard.md "Tests"), in Debian's chromium through
 * playwright-core against one real server process, one browser, one page loaded once:
 * - sign-in: a wrong token is an error on the form; the admin key alone lists every repository
 *   with its branches and queue; a repository token lists its own, and its revocation ends the
 *   session with the reason; an unknown repository is a "not found" page;
 * - a replay with a pull request broken on purpose: the bisecting batch shows the check that failed
 *   (never "0 of 0"), linked to the local CI's log; batch names do not skip; the removal is in the
 *   history with its reason and its batch, whose page shows the failed check;
 * - a pull request held in its batch (demo/hold, test/support/dashboard-world.ts): its page's
 *   title, author, conditions (described as the local CI's, not GitHub's) and timeline in words;
 *   queueing it again under another rule; no estimate while paused; a scheduled freeze's banner;
 * - at 400 px wide, the header and the pages fit the screen; facet names never overflow.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReplayReport } from "../../services/replay/index.js";
import { clickThrough, launchBrowser, screenshot, signedInPage } from "../support/browser.js";
import { runCli } from "../support/cli.js";
import { goInPage, heldRepository, issueToken, revokeToken } from "../support/dashboard-world.js";
import { eventually } from "../support/eventually.js";
import { ROOT, startServerProcess, type ServerProcess } from "../support/server-process.js";

/**
 * The replay's configuration: batches of exactly 4, so the one holding the broken pull request is
 * bisected. The replay opens its 4 pull requests at once, within a few seconds; a batch short of 4
 * waits 20 s for company after its oldest member entered, so the 2 left after the bisection do not
 * wait a minute (the bisection's own checks, 8 s each, outlast those 20 s).
 */
const BISECT_CONFIG = `queue_rules:
  - name: replay
    batch_size: 4
    batch_max_wait_time: 20 s
    branch_protection_injection_mode: merge
    merge_method: merge
merge_queue:
  max_parallel_checks: 2
`;

let server: ServerProcess;
let browser: Browser;
let page: Page;
let loads: () => number;
let cleanup: () => Promise<void>;

async function api(method: string, route: string, body?: unknown): Promise<any> {
  const res = await fetch(`${server.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.status === 204 ? null : res.json();
}

beforeAll(async () => {
  // The server and chromium start at the same time: neither needs the other to start.
  [server, browser] = await Promise.all([startServerProcess({ YARDMASTER_CI_SLOTS: "3" }), launchBrowser()]);
  cleanup = await heldRepository(server, "demo", "hold");
  ({ page, loads } = await signedInPage(browser, server.url, server.adminKey));
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await cleanup?.();
});

describe("signing in and finding repositories", () => {
  it("answers a wrong token with an error on the sign-in form, not a page reconnecting forever", async () => {
    const other = await browser.newPage();
    await other.goto(server.url);
    await other.getByLabel("Token").fill("yma_not-the-key");
    await other.getByRole("button", { name: "Sign in" }).click();
    await other
      .getByTestId("sign-in-error")
      .getByText(/^This token was refused/)
      .waitFor();
    expect(await other.getByText("reconnecting").count()).toBe(0);
    await other.close();
  });

  it("lists for the admin key alone every repository, with its branches and queue", async () => {
    const row = page.locator('tr[data-name="demo/hold"]');
    await row.getByText("1 queued, 1 in batches").waitFor({ timeout: 60_000 });
    expect(await row.getByRole("link", { name: "main", exact: true }).getAttribute("href")).toBe(
      "/repos/demo/hold/queue/main",
    );
    await screenshot(page, "repositories");
  });

  it("shows a not found page for a repository Yardmaster does not know", async () => {
    await goInPage(page, "/repos/nobody/nothing/queue/main");
    await page.getByTestId("not-found").getByText("knows no repository nobody/nothing").waitFor();
    await screenshot(page, "not-found");
    await clickThrough(page, "Your repositories", /^Repositories/);
  });

  it("lists for a repository token its repository only, and ends the session when it is revoked", async () => {
    const token = await issueToken(server, "demo/hold");
    const own = await signedInPage(browser, server.url, token.secret);
    await own.page.locator('tr[data-name="demo/hold"]').waitFor();
    expect(await own.page.getByTestId("repository").count()).toBe(1);
    await revokeToken(server, token.id);
    // The home reads the list again every 5 s: the refusal ends the session, with the reason.
    await own.page
      .getByTestId("sign-in-error")
      .getByText(/did not accept the token/)
      .waitFor({ timeout: 60_000 });
    await own.page.close();
  });
});

describe("a failing batch, bisected", () => {
  let report: ReplayReport;

  it("shows the bisecting batch's failed check, linked to the local CI's log, never 0 of 0", async () => {
    // Batches of exactly 4 (a short batch waits 20 s for company): the first one, holding the
    // broken pull request, is bisected whatever the machine's speed.
    const config = path.join(await mkdtemp(path.join(os.tmpdir(), "ym-e2e-bisect-")), "yardmaster.yml");
    await writeFile(config, BISECT_CONFIG);
    const args = ["--limit", "4", "--break", "2", "--ci", "sleep 8", "--speed", "1e9", "--config", config];
    const replay = runCli(
      ["replay", "--json", "--from", ROOT, "--repo", "demo/bisect", ...args],
      server.cliEnv,
      300_000,
    );
    // The home reads the list every 5 s: the repository shows once the replay created it.
    const main = page.locator('tr[data-name="demo/bisect"]').getByRole("link", { name: "main", exact: true });
    await main.waitFor({ timeout: 120_000 });
    await main.click();
    await page.getByRole("heading", { name: /^Queue of main/ }).waitFor();
    const bisecting = page.locator('[data-testid="batch"][data-status="bisecting"]').first();
    await bisecting.waitFor({ timeout: 180_000 });
    const explained = await bisecting.getByTestId("batch-explanation").first().textContent();
    expect(explained).toMatch(
      /^Failed: 0 of 1 check passed \(replay failed\)\. Bisecting: (1 sub-batch checks a prefix|\d+ sub-batches check prefixes) of it/,
    );
    expect(await page.getByText("0 of 0").count()).toBe(0);
    const failed = bisecting.locator('[data-testid="check"][data-state="failure"]').first();
    expect(await failed.getByRole("link", { name: "replay" }).getAttribute("href")).toMatch(
      /^\/repos\/demo\/bisect\/check-runs\/\d+$/,
    );
    await screenshot(page, "queue-bisecting");
    await failed.getByRole("link", { name: "replay" }).click();
    await page
      .getByTestId("check-output")
      .getByText(/broken on purpose/)
      .waitFor();
    await screenshot(page, "check-run");
    await page.goBack();
    const run = await replay;
    expect(run.code, run.stderr).toBe(0);
    report = JSON.parse(run.stdout) as ReplayReport;
  }, 300_000);

  it("numbers its batches without gaps, and lists the culprit's removal with its reason and batch", async () => {
    const starts = await api("GET", "/v1/repos/demo/bisect/logs?event_type=action.queue.checks_start&per_page=100");
    const names = new Set<string>(starts.events.map((e: any) => e.metadata.batch_name as string));
    const numbers = [...names].filter((n) => n.startsWith("Batch ")).map((n) => Number(n.slice(6)));
    expect(numbers.sort((a, b) => a - b)).toEqual(numbers.map((_, i) => i + 1));
    const culprit = page.getByTestId("history-row").filter({ hasText: /checks failed|culprit, by elimination/ });
    await culprit.first().waitFor({ timeout: 30_000 });
    expect(await culprit.count()).toBe(1);
    // One row per leave (history.tsx shows up to 15): every merge, every merge with a later pull
    // request (a later head holding the commit merged first, docs/replay.md "Breaking a linear
    // history"; which happens depends on timing) and every removal of the report.
    const leaves = report.merged.length + report.mergedWithLater.length + report.dequeued.length;
    expect(leaves).toBe(4);
    await eventually(async () => {
      expect(await page.getByTestId("history-row").count()).toBe(leaves);
    }, 60_000);
    await culprit.getByRole("link", { name: "batch" }).click();
    await page.getByTestId("batch-story").getByRole("link", { name: "replay" }).first().waitFor();
    await screenshot(page, "batch");
    expect(loads()).toBe(1);
  });
});

describe("a pull request held in its batch", () => {
  it("shows its title, author, conditions described as the local CI's, and a timeline in words", async () => {
    await goInPage(page, "/repos/demo/hold/queue/main");
    await clickThrough(page, "#1", /^#1 Add the feature/);
    expect(await page.getByTestId("pull-author").textContent()).toBe("ada");
    const conditions = page.locator('section[aria-labelledby="merge-conditions"]');
    await conditions.getByText("check-success = test").waitFor();
    expect(await conditions.textContent()).toContain("required by the local CI (.yardmaster/ci.yml)");
    expect(await page.locator("main").textContent()).not.toContain("GitHub branch protection");
    await page.getByTestId("event").filter({ hasText: "entered the queue" }).first().waitFor();
    const types = await page.getByTestId("event").locator("td:nth-child(2)").allInnerTexts();
    expect(types).toEqual(expect.arrayContaining(["entered the queue", "queue command"]));
    expect(types.filter((t) => t.includes("action."))).toEqual([]);
    await screenshot(page, "pull-request");
  });

  it("queues it again under another rule, as @yardmaster queue urgent does", async () => {
    await page
      .getByTestId("requeue")
      .getByLabel(/^Queue again under/)
      .selectOption("urgent");
    await page.getByRole("button", { name: "Queue again" }).click();
    await page.getByTestId("requeue-answer").getByText("Queued under urgent, at position 1.").waitFor();
    await eventually(async () => {
      expect((await api("GET", "/v1/repos/demo/hold/merge-queue/pull/1")).queue_rule.name).toBe("urgent");
    }, 60_000);
  });

  it("shows no estimate while paused, and a scheduled freeze as a banner and in the list", async () => {
    await clickThrough(page, "Branches", /^demo\/hold/);
    await clickThrough(page, "main", /^Queue of main/);
    await page.getByLabel("Pause reason").fill("hold everything");
    await page.getByRole("button", { name: "Pause the queue" }).click();
    await page.getByText("none while the queue is paused").first().waitFor({ timeout: 60_000 });
    expect(await page.getByText(/in a few seconds|\(in \d/).count()).toBe(0);
    await page.getByRole("status", { name: "Queue paused" }).getByRole("button", { name: "Unpause" }).click();
    const freeze = await api("POST", "/v1/repos/demo/hold/scheduled_freeze", {
      reason: "release 2.0",
      timezone: "UTC",
      matching_conditions: ["base=main"],
      exclude_conditions: [],
    });
    const banner = page.getByRole("status", { name: "Scheduled freeze in force" });
    await banner.getByText("release 2.0").waitFor({ timeout: 60_000 });
    expect(await page.getByTestId("freeze").getByText("in force").count()).toBe(1);
    await screenshot(page, "queue-frozen");
    await api("POST", `/v1/repos/demo/hold/scheduled_freeze/${freeze.id}/delete`, { delete_reason: "done" });
    await banner.waitFor({ state: "detached", timeout: 60_000 });
  });
});

describe("small screens and long names", () => {
  it("fits the header and the pages into 400 px", async () => {
    await page.setViewportSize({ width: 400, height: 800 });
    for (const [to, heading] of [
      ["/repos/demo/hold/queue/main", /^Queue of main/],
      ["/repos/demo/hold/pull/1", /^#1 /],
      ["/repos/demo/bisect/logs", /^Activity log/],
    ] as const) {
      await goInPage(page, to);
      await page.getByRole("heading", { name: heading }).first().waitFor();
      for (const link of await page.locator("header a, header button").all()) {
        const box = (await link.boundingBox())!;
        expect([box.x >= 0, box.x + box.width <= 400], (await link.textContent()) ?? "").toEqual([true, true]);
      }
      expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(400);
    }
    await goInPage(page, "/repos/demo/hold/queue/main");
    await page
      .getByRole("heading", { name: /^Queue of main/ })
      .getByText("live")
      .waitFor();
    await page.getByTestId("history-row").first().waitFor();
    await screenshot(page, "queue-400");
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("keeps every facet value inside its box", async () => {
    await goInPage(page, "/repos/demo/bisect/logs");
    await page.locator('fieldset[data-facet="event_type"] li').first().waitFor();
    const outside = await page
      .locator(".facets li")
      .evaluateAll((lis) =>
        lis.filter(
          (li) => li.getBoundingClientRect().right > li.closest("fieldset")!.getBoundingClientRect().right + 0.5,
        ),
      );
    expect(outside.length).toBe(0);
    expect(await page.locator("aside").evaluate((a) => a.scrollWidth <= a.clientWidth)).toBe(true);
    expect(loads()).toBe(1);
  });
});
