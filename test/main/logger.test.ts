/**
 * The serve command's logs (services/main/logger.ts, docs/observability.md "Logs"): JSON lines when
 * stdout is not a terminal, pretty text when it is or when LOG_FORMAT=pretty, JSON when
 * LOG_FORMAT=json on a terminal; start-up lines held until the banner is out.
 */
import { describe, expect, it } from "vitest";
import { createStartLogger, type LogFormat } from "../../services/main/logger.js";
import { readSettings } from "../../services/main/settings.js";

/** ANSI colour sequences (pino-pretty colours its output on a terminal). */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

function collector(isTTY: boolean) {
  const lines: string[] = [];
  return { out: { isTTY, write: (t: string) => lines.push(t) }, lines };
}

describe("createStartLogger", () => {
  it.each<[LogFormat, boolean, "json" | "pretty"]>([
    ["auto", false, "json"],
    ["auto", true, "pretty"],
    ["pretty", false, "pretty"],
    ["json", true, "json"],
  ])("LOG_FORMAT=%s with a terminal %s writes %s", (format, tty, expected) => {
    const { out, lines } = collector(tty);
    const { logger, release } = createStartLogger("info", format, out);
    release();
    logger.info({ repository: "acme/widgets" }, "queue round applied");
    expect(lines).toHaveLength(1);
    if (expected === "json") {
      expect(JSON.parse(lines[0])).toMatchObject({ level: 30, msg: "queue round applied", repository: "acme/widgets" });
    } else {
      const text = lines[0].replace(ANSI, "");
      expect(text !== lines[0]).toBe(tty);
      expect(() => JSON.parse(text)).toThrow();
      expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: queue round applied\n/);
      expect(text).toContain('repository: "acme/widgets"');
    }
  });

  it("holds the start-up lines until release, so the banner comes first", () => {
    const { out, lines } = collector(false);
    const { logger, release } = createStartLogger("info", "json", out);
    logger.info("PostgreSQL migrations applied");
    expect(lines).toEqual([]);
    out.write("Yardmaster is listening on http://127.0.0.1:8080\n");
    release();
    logger.info("later");
    expect(lines[0]).toMatch(/^Yardmaster is listening/);
    expect(lines.slice(1).map((l) => JSON.parse(l).msg)).toEqual(["PostgreSQL migrations applied", "later"]);
    release();
    expect(lines).toHaveLength(3);
  });

  it("reads LOG_FORMAT, refusing an unknown value", () => {
    expect(readSettings({}).logFormat).toBe("auto");
    expect(readSettings({ LOG_FORMAT: "pretty" }).logFormat).toBe("pretty");
    expect(() => readSettings({ LOG_FORMAT: "xml" })).toThrow(/LOG_FORMAT/);
  });
});
