/**
 * The App's needs declared once (services/forge/github/app-manifest.ts; docs/github.md "Setting up
 * the App"): the manifest carries exactly the declared permissions and events, the docs' table says
 * the same, every declared event is one the webhook mapping reads and every event it reads is
 * declared, an installation's missing or too weak permissions are named, and `yardmaster
 * github-app-manifest` prints the manifest.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  githubAppManifest,
  mapGithubWebhook,
  missingPermissions,
  NEEDED_EVENTS,
  NEEDED_PERMISSIONS,
} from "../../../services/forge/github/index.js";
import { cliStdout } from "../../support/cli.js";
import { ROOT } from "../../support/server-process.js";

type Example = { name: string; examples: Record<string, unknown>[] };
const examples: Example[] = createRequire(import.meta.url)("@octokit/webhooks-examples/api.github.com/index.json");

describe("the App manifest", () => {
  it("is derived from the declared permissions and events, with the webhook under the given URL", () => {
    const manifest = githubAppManifest({ name: "Yardmaster ACME", url: "https://ym.acme.example/" });
    expect(manifest).toMatchObject({
      name: "Yardmaster ACME",
      url: "https://ym.acme.example",
      hook_attributes: { url: "https://ym.acme.example/webhooks/github", active: true },
      public: false,
    });
    expect(manifest.default_permissions).toEqual(Object.fromEntries(NEEDED_PERMISSIONS.map((p) => [p.name, p.level])));
    expect(manifest.default_events).toEqual(NEEDED_EVENTS.map((e) => e.name));
    expect(manifest.default_permissions).toMatchObject({ actions: "write", administration: "read" });
  });

  it("declares every event the webhook mapping reads, and only those", () => {
    // An event the mapping does not follow is ignored whatever its payload; one it follows is read
    // (an empty payload fails its field checks).
    const follows = (name: string) => {
      try {
        const m = mapGithubWebhook(name, {});
        return !(m.kind === "ignored" && /is not one the queue follows/.test(m.reason));
      } catch {
        return true;
      }
    };
    const read = [...new Set(examples.map((e) => e.name))].filter(follows).sort();
    expect(NEEDED_EVENTS.map((e) => e.name).sort()).toEqual(read);
  });

  it("is what docs/github.md's permissions table says", () => {
    const doc = readFileSync(path.join(ROOT, "docs/github.md"), "utf8");
    const section = doc.slice(doc.indexOf("Repository permissions"), doc.indexOf("Subscribe to the events"));
    const rows = [...section.matchAll(/^\| ([A-Z][\w ]+) \| (read|read and write) \|/gm)].map((m) => [m[1], m[2]]);
    expect(rows).toEqual(NEEDED_PERMISSIONS.map((p) => [p.title, p.level === "write" ? "read and write" : "read"]));
    for (const e of NEEDED_EVENTS)
      expect(section + doc.slice(doc.indexOf("Subscribe to the events"))).toContain(`\`${e.name}\``);
  });

  it("is printed by `yardmaster github-app-manifest`", async () => {
    const out = await cliStdout({ ...process.env, YARDMASTER_FROM_SOURCE: "1" }, [
      "github-app-manifest",
      "--url",
      "https://ym.acme.example",
      "--name",
      "YM",
    ]);
    expect(JSON.parse(out)).toEqual(githubAppManifest({ name: "YM", url: "https://ym.acme.example" }));
  });
});

describe("an installation's granted permissions", () => {
  it("lacking one, or granting read where write is needed, names each", () => {
    const granted = Object.fromEntries(NEEDED_PERMISSIONS.map((p) => [p.name, p.level]));
    expect(missingPermissions(granted)).toEqual([]);
    delete granted.administration;
    granted.actions = "read";
    expect(missingPermissions(granted)).toEqual([
      { name: "actions", needed: "write", granted: "read" },
      { name: "administration", needed: "read", granted: null },
    ]);
  });
});
