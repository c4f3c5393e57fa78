/** Public surface of services/main: the CLI entry and the composition root. */
export { buildProgram, runCli } from "./cli.js";
export { startServer, type RunningServer } from "./server.js";
export { readSettings, SettingsError, type Settings } from "./settings.js";
