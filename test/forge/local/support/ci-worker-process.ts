/**
 * A second process running the local forge's CI worker against a test's database and data
 * directory, so a test can kill it (SIGKILL) mid-job like a crash. Prints each forge event as a
 * JSON line on stdout. Environment: DATABASE_URL, YARDMASTER_DATA_DIR, CI_TEMP_ROOT.
 */
import pg from "pg";
import pino from "pino";
import { createLocalForge } from "../../../../services/forge/local/index.js";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 3 });
createLocalForge({
  db: pool,
  dataDir: process.env.YARDMASTER_DATA_DIR!,
  logger: pino({ level: "warn" }, pino.destination(2)),
  sink: (event) => void process.stdout.write(`${JSON.stringify(event)}\n`),
  ci: { slots: 1, pollMs: 100, leaseMs: 60_000, runner: { tempRoot: process.env.CI_TEMP_ROOT, killGraceMs: 500 } },
});
process.stdout.write("ready\n");
