/**
 * `npm run bench:live:dashboard` (the browser side of the live streams; docs/dashboard.md
 * "Budget and latency"): the dashboard in Debian's chromium (playwright-core) against a real server
 * process on the embedded defaults.
 * 1. First load: the compressed JavaScript the browser downloads for `/` (encoded body sizes, as
 *    sent with the Accept-Encoding chromium offers), against the 250 KB budget; the same files raw
 *    and gzip-compressed for reference.
 * 2. Event to row: the activity-log page open with its live tail; a pause reason is set N times
 *    through REST (each logs queue.pause.create or .update, whose reason the row shows), and the
 *    time from the REST answer (the event is committed) to the row on the page is measured in the
 *    browser's clock (a MutationObserver stamps each row as it appears). p50 / p95 / max against
 *    the target p95 <= 1 s. Printed with the transport the page used (a stream, or polling when the
 *    server answers the streaming RPCs with UNIMPLEMENTED).
 * Options: --events N (default 20), --gap-ms N (between two events, default 1500).
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";
import { startBenchServer } from "./load/server.js";

const { values: opts } = parseArgs({
  options: { events: { type: "string", default: "20" }, "gap-ms": { type: "string", default: "1500" } },
});
const EVENTS = Number(opts.events);
const GAP_MS = Number(opts["gap-ms"]);
const BUDGET_KB = 250;
const LATENCY_P95_MS = 1000;
const REPO = "bench/dashboard";
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** The raw and gzip sizes of the built JavaScript files (dist/web/assets/*.js). */
function builtJs(): { raw: number; gzip: number } {
  const dir = path.join(ROOT, "dist", "web", "assets");
  let raw = 0;
  let gzip = 0;
  for (const f of readdirSync(dir).filter((n) => n.endsWith(".js"))) {
    raw += statSync(path.join(dir, f)).size;
    gzip += gzipSync(readFileSync(path.join(dir, f)), { level: 9 }).length;
  }
  return { raw, gzip };
}

/**
 * Whether the server serves WatchLogs over Connect (else the page polls): a refused call ends at
 * once with an `unimplemented` end-of-stream frame; a served one stays open with nothing to say.
 */
async function streamsServed(url: string, key: string): Promise<boolean> {
  const json = Buffer.from(JSON.stringify({ owner: "bench", repository: "dashboard" }));
  const head = Buffer.alloc(5);
  head.writeUInt32BE(json.length, 1);
  try {
    const res = await fetch(`${url}/yardmaster.v1.ActivityLogService/WatchLogs`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/connect+json" },
      body: Buffer.concat([head, json]),
      signal: AbortSignal.timeout(2000),
    });
    return !(await res.text()).includes('"unimplemented"');
  } catch {
    return true; // still open when the time ran out
  }
}

const server = await startBenchServer();
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
try {
  const api = (method: string, route: string, body?: unknown) =>
    fetch(`${server.url}/v1/repos/${REPO}/${route}`, {
      method,
      headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  // 1. First load.
  const page = await browser.newPage();
  const scripts = new Map<string, number>();
  page.on("requestfinished", async (req) => {
    if (req.resourceType() !== "script") return;
    scripts.set(req.url(), (await req.sizes()).responseBodySize);
  });
  await page.goto(server.url, { waitUntil: "networkidle" });
  const encoded = [...scripts.values()].reduce((s, x) => s + x, 0);
  const built = builtJs();

  // 2. Event to row. The repository is known to the service once it has queue state (here a
  // pause, kept: each event below changes its reason): the dashboard shows "not found" for one it
  // does not know.
  const seed = await api("PUT", "merge-queue/pause", { reason: "bench: make the repository known" });
  if (seed.status !== 200) throw new Error(`PUT merge-queue/pause answered ${seed.status}: ${await seed.text()}`);
  await page.getByLabel("Token").fill(server.adminKey);
  await page.getByRole("button", { name: "Sign in" }).click();
  // Sign-in checks the token first (ListRepositories): the session exists once the home shows.
  await page.getByRole("heading", { name: /^Repositories/ }).waitFor();
  await page.goto(`${server.url}/repos/${REPO}/logs?event_type=queue.pause.create&event_type=queue.pause.update`);
  await page.getByTestId("total").waitFor();
  await page.evaluate(() => {
    const seen = ((globalThis as any).__seen = new Map<string, number>());
    new (globalThis as any).MutationObserver(() => {
      for (const td of (globalThis as any).document.querySelectorAll("[data-testid=event] td:last-child"))
        if (!seen.has(td.textContent)) seen.set(td.textContent, performance.timeOrigin + performance.now());
    }).observe((globalThis as any).document.body, { subtree: true, childList: true, characterData: true });
  });
  const latencies: number[] = [];
  for (let i = 0; i < EVENTS; i++) {
    const reason = `bench event ${i} ${Date.now()}`;
    const res = await api("PUT", "merge-queue/pause", { reason });
    const committed = Date.now();
    if (res.status !== 200) throw new Error(`PUT merge-queue/pause answered ${res.status}: ${await res.text()}`);
    await page.waitForFunction((r) => (globalThis as any).__seen.has(r), reason, { timeout: 30_000 });
    const shown = await page.evaluate((r) => (globalThis as any).__seen.get(r) as number, reason);
    latencies.push(shown - committed);
    await new Promise((r) => setTimeout(r, GAP_MS));
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  const p95 = pct(sorted, 95);
  const streams = await streamsServed(server.url, server.adminKey);

  console.log("Dashboard, first load (JavaScript of /):");
  console.log(
    `  transferred (compressed): ${kb(encoded)} KB in ${scripts.size} file(s); budget ${BUDGET_KB} KB: ${encoded <= BUDGET_KB * 1024 ? "met" : "MISSED"} (${((100 * encoded) / (BUDGET_KB * 1024)).toFixed(0)}% of it)`,
  );
  console.log(
    `  built files: ${kb(built.raw)} KB raw, ${kb(built.gzip)} KB gzip -9; brotli saves ${(100 - (100 * encoded) / built.gzip).toFixed(0)}% over gzip`,
  );
  console.log(
    `Event to row on the activity-log page (${EVENTS} events, page ${streams ? "streaming WatchLogs" : "polling: WatchLogs not served over Connect"}):`,
  );
  console.log(
    `  p50 ${pct(sorted, 50).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms; target p95 <= ${LATENCY_P95_MS} ms: ${p95 <= LATENCY_P95_MS ? "met" : "MISSED"}`,
  );
} finally {
  await browser.close();
  await server.stop();
}
