/**
 * A second process making one local forge write against a test's database and data directory,
 * with the failpoints of `YARDMASTER_FAILPOINTS` armed, so a test can have it die (`kill`) at an
 * exact point of the write, as a crash would. Environment: DATABASE_URL, YARDMASTER_DATA_DIR,
 * YARDMASTER_FAILPOINTS, WRITE (JSON: `{"kind":"merge", ...mergePullRequests input, "repo"}` or
 * `{"kind":"comment","repo","number","body"}`). Prints the write's result as JSON and exits 0 when
 * the write returns.
 */
import pg from "pg";
import pino from "pino";
import { armFailpointsFromEnvironment } from "../../../../services/failpoints/index.js";
import { createLocalForge } from "../../../../services/forge/local/index.js";

armFailpointsFromEnvironment();
const write = JSON.parse(process.env.WRITE!);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 3 });
const forge = createLocalForge({
  db: pool,
  dataDir: process.env.YARDMASTER_DATA_DIR!,
  logger: pino({ level: "warn" }, pino.destination(2)),
  ci: { start: false },
});
await forge.ready;
const result =
  write.kind === "merge"
    ? await forge.mergePullRequests(write.repo, write)
    : await forge.comment(write.repo, write.number, write.body);
process.stdout.write(`${JSON.stringify(result)}\n`);
await forge.close();
await pool.end();
