/**
 * Every real configuration file of test/fixtures/config/real-configs (202 files written by public
 * projects; its README names each file's
 * source) either loads, with its deprecations counted, or fails with errors
 * naming the real mistake. The expected outcome of each file is recorded in
 * test/fixtures/config/real-configs-expected.json: `{ok: true, deprecations: n}` or
 * `{ok: false, errors: ["<message> @ <path> (line L, column C)", ...]}`. Files that `extends`
 * another repository are loaded with that repository's configuration empty (it is not part of
 * the fixtures).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatConfigError, loadConfiguration } from "../../services/config/index.js";

const DIRECTORY = path.resolve(import.meta.dirname, "../fixtures/config/real-configs");
const EXPECTED: Record<string, { ok: true; deprecations: number } | { ok: false; errors: string[] }> = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/config/real-configs-expected.json"), "utf8"),
);

const files = fs
  .readdirSync(DIRECTORY)
  .filter((f) => f.endsWith(".yml"))
  .sort();

describe("real configuration files", () => {
  it("has an expected outcome for each of the 202 files, and no other", () => {
    expect(files.length).toBe(202);
    expect(Object.keys(EXPECTED).sort()).toEqual(files);
  });

  it.each(files)("%s", async (file) => {
    const r = await loadConfiguration(fs.readFileSync(path.join(DIRECTORY, file), "utf8"), {
      loadExtended: async () => "",
    });
    const outcome = r.ok
      ? { ok: true, deprecations: r.deprecations.length }
      : { ok: false, errors: r.errors.map(formatConfigError) };
    expect(outcome).toEqual(EXPECTED[file]);
  });

  it("keeps the files that are not valid YAML as broken examples, each error with a line and column", async () => {
    const broken = [
      "NixOS__nix__mergify.yml",
      "APICe-at-DISI__exercises__mergify.yml",
      "Abuchtela__base__mergify.yml",
      "mdkinney__ATest__mergify-config.yml",
      "ceph__ceph-csi__mergify.yml",
      "bird-grid2__Calmania__mergify-config.yml",
    ];
    for (const file of broken) {
      const r = await loadConfiguration(fs.readFileSync(path.join(DIRECTORY, file), "utf8"));
      expect(r.ok).toBe(false);
      if (!r.ok)
        for (const e of r.errors)
          expect([
            file,
            e.line !== null,
            e.message.startsWith("YAML syntax error") || e.message.includes("conflict markers"),
          ]).toEqual([file, true, true]);
    }
  });

  it("refuses files only for the kinds of error reviewed in docs/configuration.md, as many as it says", () => {
    // biome-ignore format: a table, one row per line
    const kinds: [string, RegExp, number, number][] = [
      ["a removed key", / was removed/, 28, 55],
      ["a renamed key", / was renamed /, 1, 2],
      ["invalid YAML", /^YAML syntax error/, 6, 18],
      ["conflict markers", /conflict markers/, 1, 1],
      ["an unknown key", /^unknown key/, 1, 1],
      ["an unknown action", /^unknown action/, 1, 1],
      ["a condition", /^(expected a condition|Invalid condition)/, 2, 4],
      ["a value of the wrong type", /^expected (a list|an object)/, 2, 2],
      ["a placeholder with filters", /^only plain/, 1, 4],
    ];
    const found = new Map(kinds.map(([name]) => [name, { files: new Set<string>(), errors: 0 }]));
    for (const [file, outcome] of Object.entries(EXPECTED)) {
      if (outcome.ok) continue;
      for (const error of outcome.errors) {
        const kind = kinds.find(([, pattern]) => pattern.test(error));
        expect(kind, `${file}: ${error}`).toBeDefined();
        const f = found.get(kind![0])!;
        f.files.add(file);
        f.errors++;
      }
    }
    expect(kinds.map(([name]) => [name, found.get(name)!.files.size, found.get(name)!.errors])).toEqual(
      kinds.map(([name, , files, errors]) => [name, files, errors]),
    );
    const loaded = Object.values(EXPECTED).filter((o) => o.ok);
    expect([loaded.length, loaded.reduce((n, o) => n + (o.ok ? o.deprecations : 0), 0)]).toEqual([161, 371]);
  });
});
