import path from "node:path";
import { InvalidArgumentError, type Command } from "commander";
import { ForgeService } from "../../../gen/yardmaster/v1/forge_pb.js";
import { serviceClient } from "../rpc-client.js";
import { readSettings } from "../settings.js";
import { out } from "./output.js";

/**
 * The `owner/name` argument of the local forge commands, split.
 * @throws InvalidArgumentError (a usage error) when it is not owner/name
 */
export function parseRepoArgument(value: string): { owner: string; repository: string } {
  const parts = value.split("/");
  if (parts.length !== 2 || parts[0] === "" || parts[1] === "")
    throw new InvalidArgumentError(`"${value}" must be written owner/name`);
  return { owner: parts[0]!, repository: parts[1]! };
}

/**
 * A pull request number argument.
 * @throws InvalidArgumentError (a usage error) unless it is a positive whole number
 */
export function parseNumberArgument(value: string): bigint {
  if (!/^[1-9][0-9]{0,15}$/.test(value)) throw new InvalidArgumentError(`"${value}" is not a pull request number`);
  return BigInt(value);
}

/** The local forge's client (ForgeService on the running service, admin key). */
export const forgeClient = () => serviceClient(ForgeService, readSettings());

/**
 * `yardmaster repo add|push|delete-branch`: repositories of the local forge (docs/local-forge.md
 * "CLI"), through ForgeService.CreateRepository, PushBranch and DeleteBranch. Paths are made
 * absolute here: the service may run in another directory.
 */
export function registerRepo(program: Command): void {
  const repo = program.command("repo").description("repositories of the local forge (FORGE=local)");
  repo
    .command("add")
    .description("create a repository: import an existing git repository (--from), or start one with an empty commit")
    .argument("<owner/name>", "the repository to create", parseRepoArgument)
    .option("--from <path>", "a git repository on this machine to import (every branch and tag)")
    .option("--default-branch <branch>", "default branch (default: the imported repository's current branch, or main)")
    .option("--at <ref>", "a revision of the imported repository for the default branch's tip")
    .action(
      async (
        name: { owner: string; repository: string },
        opts: { from?: string; defaultBranch?: string; at?: string },
      ) => {
        const client = await forgeClient();
        const res = await client.createRepository({
          ...name,
          fromPath: opts.from === undefined ? "" : path.resolve(opts.from),
          defaultBranch: opts.defaultBranch ?? "",
          atRef: opts.at ?? "",
        });
        out(`${name.owner}/${name.repository}: ${res.defaultBranch} at ${res.headSha}`);
      },
    );
  repo
    .command("push")
    .description(
      "copy a commit of a git repository on this machine to a branch (creates or moves it; a pull request's head updates it)",
    )
    .argument("<owner/name>", "the repository to push to", parseRepoArgument)
    .requiredOption("--from <path>", "the git repository holding the commit")
    .requiredOption("--ref <ref>", "the revision to push (branch, tag, SHA)")
    .requiredOption("--branch <branch>", "the branch to create or move")
    .option("--force", "allow a move that is not a fast-forward", false)
    .option(
      "--merge",
      "merge the commit into the branch's tip (a merge commit) instead of moving the branch to it",
      false,
    )
    .option("--pusher <login>", "who pushes (a local user, created on first use)", "")
    .action(
      async (
        name: { owner: string; repository: string },
        opts: { from: string; ref: string; branch: string; force: boolean; merge: boolean; pusher: string },
      ) => {
        if (opts.force && opts.merge)
          throw new Error("--force and --merge exclude each other: a merge never rewrites the branch");
        const client = await forgeClient();
        const res = await client.pushBranch({
          ...name,
          fromPath: path.resolve(opts.from),
          sourceRef: opts.ref,
          branch: opts.branch,
          force: opts.force,
          merge: opts.merge,
          pusher: opts.pusher,
        });
        out(`${opts.branch}: ${res.beforeSha === "" ? "(new)" : res.beforeSha} -> ${res.afterSha}`);
      },
    );
  repo
    .command("delete-branch")
    .description("delete a branch (not the default one); the open pull requests it is the head or base of are closed")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .argument("<branch>", "the branch to delete")
    .option("--pusher <login>", "who deletes it (a local user, created on first use)", "")
    .action(async (name: { owner: string; repository: string }, branch: string, opts: { pusher: string }) => {
      const client = await forgeClient();
      const res = await client.deleteBranch({ ...name, branch, pusher: opts.pusher });
      out(`${branch}: deleted (was ${res.beforeSha})`);
    });
}
