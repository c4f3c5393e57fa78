#!/usr/bin/env node
// The `yardmaster` command. Runs the TypeScript sources directly through tsx's loader, so a fresh
// clone needs no build step (`npm ci && npm start`).
import { register } from "tsx/esm/api";

register();
const { runCli } = await import("../services/main/cli.ts");
await runCli(process.argv);
