/**
 * The repositories the GitHub App is installed on (services/forge/github/installed-repositories.ts,
 * docs/github.md "Repositories"), against the OpenAPI-checked double: every installation's
 * repositories, sorted, found case-insensitively, kept five minutes, a failure a ForgeError.
 */
import { describe, expect, it } from "vitest";
import { createGithubRepositoryDirectory } from "../../../services/forge/index.js";
import { useGithubDouble, type GithubDouble } from "./support/github-double.js";

let double: GithubDouble;
useGithubDouble((d) => (double = d));

const directoryFor = (d: GithubDouble) =>
  createGithubRepositoryDirectory({
    appId: d.appId,
    privateKey: d.privateKey,
    fetch: d.fetch,
    secondMs: 0,
    spaceWrites: false,
    now: () => d.clock.getTime(),
  });

describe("the GitHub App's repositories", () => {
  it("lists the repositories of every installation, by name, each with its default branch", async () => {
    await double.addRepo("acme/widgets");
    await double.addRepo("Acme/Gadgets", { defaultBranch: "trunk" });
    const directory = directoryFor(double);
    expect(await directory.list()).toEqual([
      { fullName: "Acme/Gadgets", defaultBranch: "trunk" },
      { fullName: "acme/widgets", defaultBranch: "main" },
    ]);
    expect(await directory.find("acme/GADGETS")).toEqual({ fullName: "Acme/Gadgets", defaultBranch: "trunk" });
    expect(await directory.find("acme/nothing")).toBeNull();
    // One installation listing, one repositories listing per installation.
    expect(double.calls("apps/list-installations")).toHaveLength(1);
    expect(double.calls("apps/list-repos-accessible-to-installation")).toHaveLength(2);
  });

  it("keeps the list five minutes, then asks GitHub again", async () => {
    const directory = directoryFor(double);
    await directory.list();
    const before = double.calls("apps/list-installations").length;
    await double.addRepo("acme/later");
    expect((await directory.list()).map((r) => r.fullName)).not.toContain("acme/later");
    double.clock = new Date(double.clock.getTime() + 5 * 60_000);
    expect((await directory.list()).map((r) => r.fullName)).toContain("acme/later");
    expect(double.calls("apps/list-installations").length).toBe(before + 1);
  });

  it("answers a failure of GitHub as a ForgeError", async () => {
    double.inject({ operationId: "apps/list-installations", status: 503, times: 4 });
    await expect(directoryFor(double).list()).rejects.toMatchObject({ name: "ForgeError", kind: "transient" });
  });
});
