/**
 * The GitHub App's settings (docs/github.md "Setting up the App"; README "Configuration"):
 * `GITHUB_API_URL` (GitHub Enterprise Server's `https://<host>/api/v3`; default api.github.com) and
 * `GITHUB_SPACE_WRITES`; a value that is not one is refused at start, naming the variable.
 */
import { describe, expect, it } from "vitest";
import { readSettings, SettingsError } from "../../services/main/settings.js";

describe("GitHub settings", () => {
  it("default to GitHub.com's API with writes spaced", () => {
    expect(readSettings({}).github).toMatchObject({ apiUrl: undefined, spaceWrites: true });
  });

  it("take a GitHub Enterprise Server API root, without its trailing slash", () => {
    const s = readSettings({ GITHUB_API_URL: "https://github.acme.example/api/v3/", GITHUB_SPACE_WRITES: "false" });
    expect(s.github).toMatchObject({ apiUrl: "https://github.acme.example/api/v3", spaceWrites: false });
  });

  it.each([
    ["GITHUB_API_URL", "github.acme.example/api/v3"],
    ["GITHUB_API_URL", "ftp://github.acme.example/api/v3"],
    ["GITHUB_SPACE_WRITES", "sometimes"],
  ])("refuse %s=%s, naming it", (name, value) => {
    expect(() => readSettings({ [name]: value })).toThrow(SettingsError);
    expect(() => readSettings({ [name]: value })).toThrow(name);
  });
});
