/**
 * `yardmaster config validate [FILE] [--repo owner/name]` (docs/configuration.md "Validating a
 * file"): checks a configuration file, for a terminal or a CI step. Exit status 0 when it is
 * valid (deprecations are printed as warnings), 1 when it is not (every error on its own line,
 * `FILE: message @ path (line L, column C)`) or cannot be read, 2 for a usage error.
 * - Without `--repo`: checked here, with the loader the simulator runs (services/config: YAML,
 *   schema, conditions, templates, limits); no service needed. A file that uses `extends` names
 *   another repository's file, which only the service can read: it is refused with a hint to use
 *   `--repo`.
 * - With `--repo`: checked by the running service's SimulatorService.SimulateConfiguration, the
 *   configuration simulator itself: `extends` resolved for that repository, and the sections of
 *   products not enabled on it reported.
 * FILE defaults to the first of `.yardmaster.yml`, `.github/yardmaster.yml` in the current directory.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { Code, ConnectError } from "@connectrpc/connect";
import type { Command } from "commander";
import { SimulatorService } from "../../../gen/yardmaster/v1/simulator_pb.js";
import { CONFIGURATION_FILES, formatConfigError, formatPath, loadConfiguration } from "../../config/index.js";
import { violationsOf } from "../../contracts/index.js";
import { serviceClient } from "../rpc-client.js";
import { readSettings } from "../settings.js";
import { out } from "./output.js";
import { parseRepoArgument } from "./repo.js";

/** Thrown when the file is not valid: its lines were printed; the command exits with status 1. */
class InvalidConfiguration extends Error {
  override readonly name = "InvalidConfiguration";
}

const err = (line: string) => void process.stderr.write(`${line}\n`);

/** The file to check: the one given, or the first configuration file present here. */
function chooseFile(file: string | undefined): string {
  if (file !== undefined) return file;
  const found = CONFIGURATION_FILES.find((f) => existsSync(f));
  if (found === undefined)
    throw new Error(`no configuration file here (${CONFIGURATION_FILES.join(", ")}): name the file to check`);
  return found;
}

/** Checks `text` here; resolves the warning lines, or rejects after printing the errors. */
async function validateHere(file: string, text: string): Promise<string[]> {
  const loaded = await loadConfiguration(text);
  const warnings = loaded.deprecations.map(
    (d) => `${file}: deprecated: ${d.message}${d.path.length ? ` @ ${formatPath(d.path)}` : ""}`,
  );
  if (!loaded.ok) {
    for (const w of warnings) err(w);
    for (const e of loaded.errors) {
      const hint = /other repositories cannot be read here/.test(e.message)
        ? " (give --repo owner/name: the service reads it)"
        : "";
      err(`${file}: ${formatConfigError(e)}${hint}`);
    }
    throw new InvalidConfiguration(`${file}: invalid (${loaded.errors.length} error(s))`);
  }
  return warnings;
}

/** Checks `text` with the service's configuration simulator for `repo`. */
async function validateWithService(file: string, text: string, repo: { owner: string; repository: string }) {
  const client = await serviceClient(SimulatorService, readSettings());
  try {
    const res = await client.simulateConfiguration({ ...repo, serviceYml: text });
    return [
      ...res.deprecations.map((d) => `${file}: deprecated: ${d.message}`),
      ...res.unusedSections.map(
        (u) => `${file}: ${u.section} is not used: ${u.productName} is not enabled on ${repo.owner}/${repo.repository}`,
      ),
    ];
  } catch (e) {
    if (!(e instanceof ConnectError) || e.code !== Code.InvalidArgument) throw e;
    const violations = violationsOf(e);
    if (violations.length === 0) err(`${file}: ${e.rawMessage}`);
    for (const v of violations) err(`${file}: ${v.description}`);
    throw new InvalidConfiguration(`${file}: invalid`);
  }
}

/** Adds `config validate` to the CLI. */
export function registerConfig(program: Command): void {
  const config = program.command("config").description("configuration files (.yardmaster.yml)");
  config
    .command("validate")
    .argument("[file]", `the file (default: the first of ${CONFIGURATION_FILES.join(", ")} here)`)
    .option(
      "--repo <owner/name>",
      "check it with the running service for this repository (resolves extends, reports products not enabled)",
      parseRepoArgument,
    )
    .description("check a configuration file as the simulator does; exit status 1 when it is not valid (for CI)")
    .action(async (file: string | undefined, o: { repo?: { owner: string; repository: string } }) => {
      const path = chooseFile(file);
      const text = await readFile(path, "utf8").catch((e: NodeJS.ErrnoException) => {
        throw new Error(`cannot read ${path}: ${e.code === "ENOENT" ? "no such file" : e.message}`);
      });
      const warnings = o.repo ? await validateWithService(path, text, o.repo) : await validateHere(path, text);
      for (const w of warnings) err(w);
      out(`${path}: valid${warnings.length ? ` (${warnings.length} warning(s) above)` : ""}`);
    });
}
