import { type Command, InvalidArgumentError } from "commander";
import { out } from "./output.js";

/**
 * `yardmaster github-app-manifest --url <public URL>`: prints the GitHub App manifest (JSON) with
 * the permissions and webhook events the adapter needs, derived from their one declaration
 * (services/forge/github/app-manifest.ts; docs/github.md "Setting up the App"). Register the App
 * from it with GitHub's manifest flow, or copy the settings by hand. Runs offline.
 */
export function registerGithubApp(program: Command): void {
  program
    .command("github-app-manifest")
    .description("print the GitHub App manifest: the permissions and events Yardmaster needs (FORGE=github)")
    .requiredOption(
      "--url <url>",
      "Yardmaster's public address (the webhook is <url>/webhooks/github)",
      (v: string) => {
        try {
          const u = new URL(v);
          if (u.protocol !== "https:" && u.protocol !== "http:") throw new Error();
          return v;
        } catch {
          throw new InvalidArgumentError("not an http(s) URL");
        }
      },
    )
    .option("--name <name>", "the App's name on GitHub", "Yardmaster")
    .option("--public", "let other accounts install the App", false)
    .action(async (opts: { url: string; name: string; public: boolean }) => {
      const { githubAppManifest } = await import("../../forge/index.js");
      out(JSON.stringify(githubAppManifest({ name: opts.name, url: opts.url, public: opts.public }), null, 2));
    });
}
