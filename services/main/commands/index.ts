/**
 * Every `yardmaster` command, one file each. A new command is a file exporting
 * `register<Name>(program)` and one line here.
 */
import type { Command } from "commander";
import { registerCi } from "./ci.js";
import { registerEvents } from "./events.js";
import { registerFreeze } from "./freeze.js";
import { registerGithubApp } from "./github-app.js";
import { registerClickHouseHttp } from "./clickhouse-http.js";
import { registerMigrate } from "./migrate.js";
import { registerPr } from "./pr.js";
import { registerProduct } from "./product.js";
import { registerRepo } from "./repo.js";
import { registerReplay } from "./replay.js";
import { registerServe } from "./serve.js";
import { registerToken } from "./token.js";
import { registerWhatIf } from "./whatif.js";

/**
 * The `register<Name>(program)` function of every CLI command, in the order they are added to the
 * program.
 */
export const COMMANDS: ((program: Command) => void)[] = [
  registerServe,
  registerMigrate,
  registerClickHouseHttp,
  registerToken,
  registerRepo,
  registerPr,
  registerCi,
  registerEvents,
  registerFreeze,
  registerProduct,
  registerReplay,
  registerWhatIf,
  registerGithubApp,
];
