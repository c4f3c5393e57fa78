/**
 * The histogram ladder and alignment (docs/activity-log.md "Aggregates"):
 * the smallest interval giving at most 100 aligned buckets over the window.
 */
import { describe, expect, it } from "vitest";
import { histogramLayout } from "../../services/activity-log/index.js";

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** Wednesday 2026-11-18 10:17:23.456 UTC. */
const W = Date.UTC(2026, 10, 18, 10, 17, 23, 456);

describe("histogram interval", () => {
  it.each([
    ["1 minute: one-second buckets", W, W + MIN, 1, 61],
    ["90 seconds: 91 one-second buckets", W, W + 90_000, 1, 91],
    ["2 minutes: 121 one-second buckets are too many", W, W + 2 * MIN, 5, 25],
    ["5 minutes", W, W + 5 * MIN, 5, 61],
    ["20 minutes", W, W + 20 * MIN, 15, 81],
    ["40 minutes", W, W + 40 * MIN, 30, 81],
    ["100 aligned minutes", Date.UTC(2026, 10, 18, 10), Date.UTC(2026, 10, 18, 10) + 100 * MIN, 60, 100],
    ["100 minutes not aligned: 101 one-minute buckets are too many", W, W + 100 * MIN, 300, 21],
    ["1 day (the default window)", W, W + DAY, 900, 97],
    ["2 days", W, W + 2 * DAY, 3600, 49],
    ["7 days", W, W + 7 * DAY, 10_800, 57],
    ["30 days", W, W + 30 * DAY, 43_200, 61],
    ["60 days", W, W + 60 * DAY, 86_400, 61],
    ["1 year", W, W + 365 * DAY, 604_800, 53],
    ["3 years: beyond the ladder, the smallest multiple of 7 days", W, W + 3 * 365 * DAY, 14 * 86_400, 79],
  ])("%s", (_name, fromMs, toMs, seconds, buckets) => {
    const l = histogramLayout({ fromMs, toMs });
    expect({ seconds: l.stepMs / 1000, buckets: l.count }).toEqual({ seconds, buckets });
    expect(l.count).toBeLessThanOrEqual(100);
    expect(l.firstStartMs).toBeLessThanOrEqual(fromMs);
    expect(l.firstStartMs + l.count * l.stepMs).toBeGreaterThanOrEqual(toMs);
  });

  it("has no buckets for an empty window", () => {
    expect(histogramLayout({ fromMs: W, toMs: W }).count).toBe(0);
  });
});

describe("bucket alignment", () => {
  it.each([
    ["15-minute buckets start on the quarter hour", W, W + DAY, Date.UTC(2026, 10, 18, 10, 15)],
    ["hourly buckets start on the hour", W, W + 2 * DAY, Date.UTC(2026, 10, 18, 10)],
    ["12-hour buckets start at midnight or noon UTC", W, W + 30 * DAY, Date.UTC(2026, 10, 18, 0)],
    ["daily buckets start at midnight UTC", W, W + 60 * DAY, Date.UTC(2026, 10, 18)],
    ["weekly buckets start on Monday", W, W + 365 * DAY, Date.UTC(2026, 10, 16)],
  ])("%s", (_name, fromMs, toMs, firstStart) => {
    expect(new Date(histogramLayout({ fromMs, toMs }).firstStartMs).toISOString()).toBe(
      new Date(firstStart).toISOString(),
    );
  });
});
