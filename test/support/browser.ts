/**
 * A real browser for the dashboard's tests (docs/dashboard.md "Tests"): Debian's chromium
 * (`apt-get install chromium`, done by .ci/run when missing) driven by playwright-core, and the
 * sign-in every page starts with. Screenshots go to a temporary directory, or with
 * `UPDATE_SCREENSHOTS=1` (`npm run screenshots`) to docs/dashboard/, where docs/dashboard.md shows
 * them: a test run leaves the tracked tree as it was.
 */
import { existsSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { ROOT } from "./server-process.js";

/** Where the distribution installs chromium. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Where the tests write their screenshots: docs/dashboard/ (shown in docs/dashboard.md) when updating them. */
export const SCREENSHOTS =
  process.env.UPDATE_SCREENSHOTS === "1"
    ? path.join(ROOT, "docs", "dashboard")
    : path.join(os.tmpdir(), "yardmaster-screenshots");

/** Launches headless chromium; throws naming the missing executable or dashboard build. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`no browser at ${CHROMIUM}: apt-get install -y chromium (.ci/run does), or set CHROMIUM_PATH`);
  if (!existsSync(path.join(ROOT, "dist", "web", "index.html")))
    throw new Error("the dashboard is not built (no dist/web/index.html): run npm run build");
  return chromium.launch({ executablePath: CHROMIUM });
}

/**
 * Opens a page of `url` (`width` pixels wide, default 1280), signs in with `token` on the sign-in
 * form, and counts the page's document loads in `loads()` (1 after sign-in: every later page is
 * reached without a reload, as a user clicking through the dashboard would).
 */
export async function signedInPage(
  browser: Browser,
  url: string,
  token: string,
  width = 1280,
): Promise<{ page: Page; loads: () => number }> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  let loads = 0;
  page.on("load", () => loads++);
  await page.goto(url);
  await page.getByLabel("Token").fill(token);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: /^Repositories/ }).waitFor();
  return { page, loads: () => loads };
}

/** Follows the in-page link named `name` (no reload) and waits for the heading `heading`. */
export async function clickThrough(page: Page, name: string | RegExp, heading: string | RegExp): Promise<void> {
  await page.getByRole("link", { name }).first().click();
  await page.getByRole("heading", { name: heading }).first().waitFor();
}

/** Writes a full-page screenshot to {@link SCREENSHOTS}/NAME.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
