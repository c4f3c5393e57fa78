import type { Command } from "commander";
import { CHECK_STATES } from "../../config/index.js";
import { registerJunitUpload } from "./junit-upload.js";
import { out } from "./output.js";
import { forgeClient, parseRepoArgument } from "./repo.js";

type Repo = { owner: string; repository: string };

/**
 * `yardmaster ci run|post`: the local CI (docs/local-forge.md "CI jobs"), through
 * ForgeService.RunChecks and PostCheckRun. `ci run` queues the checks of `.yardmaster/ci.yml` at a
 * branch, SHA or `#n`; `ci post` records a check run from any other CI.
 */
export function registerCi(program: Command): void {
  const ci = program.command("ci").description("the local forge's CI (FORGE=local), and test report uploads");
  registerJunitUpload(ci);
  ci.command("run")
    .description("run the checks of .yardmaster/ci.yml at a commit (a branch, a SHA, or #n for a pull request's head)")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .argument("<ref>", "branch, commit SHA or #n")
    .action(async (repo: Repo, ref: string) => {
      const client = await forgeClient();
      const res = await client.runChecks({ ...repo, ref });
      out(
        res.checks.length === 0
          ? `${res.sha}: no checks declared (.yardmaster/ci.yml)`
          : `${res.sha}: running ${res.checks.join(", ")}`,
      );
    });
  ci.command("post")
    .description("record a check run on a commit, for an external CI")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .argument("<sha>", "the commit (40 hex digits)")
    .argument("<name>", "the check's name (check-success=<name>)")
    .argument("<state>", `${CHECK_STATES.slice(0, -1).join(", ")} or ${CHECK_STATES.at(-1)}`)
    .option("--description <text>", "a line shown next to the check", "")
    .option("--url <url>", "where the run's details are", "")
    .option("--app <name>", "the CI posting it", "")
    .action(
      async (
        repo: Repo,
        sha: string,
        name: string,
        state: string,
        opts: { description: string; url: string; app: string },
      ) => {
        const client = await forgeClient();
        await client.postCheckRun({
          ...repo,
          sha,
          name,
          state,
          description: opts.description,
          detailsUrl: opts.url,
          app: opts.app,
        });
        out(`check ${name} on ${sha}: ${state}`);
      },
    );
}
