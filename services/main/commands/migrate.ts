import type { Command } from "commander";
import { readSettings } from "../settings.js";
import { out } from "./output.js";

/** `yardmaster migrate`: applies pending PostgreSQL and ClickHouse migrations, then exits. */
export function registerMigrate(program: Command): void {
  program
    .command("migrate")
    .description("apply pending PostgreSQL and ClickHouse migrations, then exit")
    .action(async () => {
      const settings = readSettings();
      const { clusterLayout, createClickHouseClient, migrateClickHouse } = await import("../../activity-log/index.js");
      const { migrate, openDatabase } = await import("../../store/index.js");
      const db = await openDatabase({ url: settings.databaseUrl, dataDir: settings.dataDir });
      try {
        const pg = await migrate(db.url);
        const ch = createClickHouseClient(settings.clickhouse);
        try {
          const chApplied = await migrateClickHouse(
            ch,
            settings.clickhouseCluster ? clusterLayout(settings.clickhouseCluster) : undefined,
          );
          out(`PostgreSQL: ${pg.length ? pg.join(", ") : "up to date"}`);
          out(`ClickHouse: ${chApplied.length ? chApplied.join(", ") : "up to date"}`);
        } finally {
          await ch.close();
        }
      } finally {
        await db.close();
      }
    });
}
