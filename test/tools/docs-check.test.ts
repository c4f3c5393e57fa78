/**
 * `npm run lint:docs` (docs/contributing.md "Docs that cannot drift"): the repository passes, and
 * each rule refuses a planted violation — a Markdown link to a missing page or heading (remark),
 * a cited page or heading that does not exist, a tracker's number, a folder without its README or
 * its row in docs/architecture.md (tools/docs-check/).
 */
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trackerNumbers, undocumentedFolders } from "../../tools/docs-check/house-rules.js";
import { checkRepository } from "../../tools/docs-check/main.js";
import { headingsOf, unresolvedCitations } from "../../tools/docs-check/references.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

const PAGE = headingsOf(
  [
    "# The API",
    "## 3. Streams and limits",
    "```md",
    "## Not a heading (in a fence)",
    "```",
    "- **Pagination.** The cursor ...",
    "8. **An input that cannot be applied** would fail every round",
  ].join("\n"),
);
const page = (p: string) => (p === "docs/api.md" ? PAGE : undefined);

describe("citations of docs pages", () => {
  it("resolves a page, a heading without its numbering, an anchor and a bold lead-in", () => {
    const text = [
      "// see docs/api.md",
      '// (docs/api.md "Streams and limits", "Pagination")',
      "// docs/api.md#3-streams-and-limits",
      '// docs/api.md "An input that cannot be applied"',
    ].join("\n");
    expect(unresolvedCitations("a.ts", text, page)).toEqual([]);
  });

  it("reports a missing page, heading or anchor with its line, and skips a path quoted as data", () => {
    const text = [
      "// docs/nope.md",
      '// docs/api.md "Streams"',
      "// docs/api.md#streams",
      '// docs/api.md "Not a heading (in a fence)"',
      'const files = ["docs/data.md"];',
    ].join("\n");
    expect(unresolvedCitations("a.ts", text, page)).toEqual([
      { file: "a.ts", line: 1, message: "cites docs/nope.md, which does not exist" },
      { file: "a.ts", line: 2, message: 'cites docs/api.md "Streams": no heading has that text' },
      { file: "a.ts", line: 3, message: "cites docs/api.md#streams: no heading has that anchor" },
      { file: "a.ts", line: 4, message: 'cites docs/api.md "Not a heading (in a fence)": no heading has that text' },
    ]);
  });
});

describe("house rules", () => {
  it("reports a tracker's number in any of its spellings", () => {
    // Planted spellings, joined at run time so that this file itself cites no tracker number.
    const n = (word: string, num: string) => `${word} ${num}`;
    const text = `fixed in ${n("issue", "26")}\nsee ${n("Issue", "#7")}, ${n("issues", "3")} and ${n("task", "12")}\nan issue of scale`;
    expect(trackerNumbers("b.md", text).map((p) => `${p.line} ${p.message.split('"')[1]}`)).toEqual([
      `1 ${n("issue", "26")}`,
      `2 ${n("Issue", "#7")}`,
      `2 ${n("issues", "3")}`,
      `2 ${n("task", "12")}`,
    ]);
  });

  it("reports a folder without its README or its layout row", () => {
    const architecture = "| `services/engine/` | the engine |\n| `services/store/` | PostgreSQL |";
    const problems = undocumentedFolders(["engine", "store", "newroom"], (f) => f === "engine", architecture);
    expect(problems.map((p) => `${p.file} ${p.message}`)).toEqual([
      "services/store/ has no README.md saying what it owns",
      "services/newroom/ has no README.md saying what it owns",
      "docs/architecture.md has no row for services/newroom/ in the layout table",
    ]);
  });

  it("finds no problem in this repository", () => {
    expect(checkRepository(ROOT)).toEqual([]);
  });
});

describe("Markdown links (remark-validate-links)", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "ym-docs-check-"));
    await cp(path.join(ROOT, ".remarkrc.json"), path.join(dir, ".remarkrc.json"));
    await symlink(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
    await mkdir(path.join(dir, "docs"));
    await writeFile(path.join(dir, "docs", "api.md"), "# API\n\n## Streams\n\nText.\n");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function remark(text: string): Promise<{ ok: boolean; out: string }> {
    await writeFile(path.join(dir, "docs", "guide.md"), text);
    const bin = path.join(ROOT, "node_modules", ".bin", "remark");
    return run(bin, ["--frail", "--quiet", "--no-color", "--no-stdout", "docs"], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    }).then(
      (r) => ({ ok: true, out: r.stderr }),
      (e) => ({ ok: false, out: `${e.stderr}` }),
    );
  }

  it("passes links to an existing page and heading", async () => {
    expect(await remark("# Guide\n\n[streams](api.md#streams), [top](#guide)\n")).toEqual({ ok: true, out: "" });
  });

  it("refuses a link to a missing page, a missing heading of a page and a missing local heading", async () => {
    const { ok, out } = await remark("# Guide\n\n[a](nope.md) [b](api.md#limits) [c](#nowhere)\n");
    expect(ok).toBe(false);
    expect(out).toMatch(/Cannot find file `nope\.md`/);
    expect(out).toMatch(/Cannot find heading for `#limits` in `api\.md`/);
    expect(out).toMatch(/Cannot find heading for `#nowhere`/);
  });
});
