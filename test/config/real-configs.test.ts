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
});
