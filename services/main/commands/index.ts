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
import { registerConfig } from "./config.js";
import { registerMigrate } from "./migrate.js";
import { registerPr } from "./pr.js";
import { registerProduct } from "./product.js";
import { registerQueue } from "./queue.js";
import { registerRepo } from "./repo.js";
import { registerReplay } from "./replay.js";
import { registerServe } from "./serve.js";
import { registerTests } from "./tests.js";
import { registerToken } from "./token.js";
import { registerWebhook } from "./webhook.js";
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
  registerQueue,
  registerConfig,
  registerWebhook,
  registerRepo,
  registerPr,
  registerCi,
  registerEvents,
  registerFreeze,
  registerProduct,
  registerTests,
  registerReplay,
  registerWhatIf,
  registerGithubApp,
];
