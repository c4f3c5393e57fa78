/**
 * A process that starts the embedded PostgreSQL on the data directory given as its argument,
 * prints "ready" and waits to be killed (test/store/orphaned-postgres.test.ts kills it with SIGKILL,
 * as a crash would, leaving the postmaster running).
 */
import { startEmbeddedPostgres } from "../../services/store/embedded-postgres.js";

await startEmbeddedPostgres(process.argv[2]!);
process.stdout.write("ready\n");
setInterval(() => {}, 60_000);
