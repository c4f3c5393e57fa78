#!/usr/bin/env node
// The `yardmaster` command. Runs the compiled build (dist/) when it is fresh, else the TypeScript
// sources directly through tsx's loader, so a fresh clone needs no separate build step
// (`npm ci && npm start`; `npm ci` builds) and an edited source is never run stale
// (bin/compiled-entry.js).
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { freshCompiledCli } from "./compiled-entry.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const compiled = freshCompiledCli(root, process.env);
let cli;
if (compiled !== null) {
  cli = await import(pathToFileURL(compiled).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  cli = await import("../services/main/cli.ts");
}
await cli.runCli(process.argv);
