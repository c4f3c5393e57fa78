/**
 * The one classification of "a database does not answer" (services/outage/database-unavailable.ts;
 * docs/errors.md "Outages"), fed with the errors the real libraries raise: node-postgres against a
 * closed port and a terminated session, @clickhouse/client against a closed port and a server that
 * never answers, the embedded chdb engine; SQL mistakes stay what they are. Also the read deadline
 * and the retries while a database is away.
 */
import net from "node:net";
import { ClickHouseError, ClickHouseLogLevel, createClient } from "@clickhouse/client";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClickHouseClient } from "../../services/activity-log/index.js";
import {
  DatabaseUnavailableError,
  isDatabaseUnavailable,
  retryWhileUnavailable,
  unavailableDatabase,
  withDeadline,
} from "../../services/outage/index.js";
import { freePort, openDatabase, type Database } from "../../services/store/index.js";
import { embeddedClickHouse } from "../support/clickhouse.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";

let db: TestDatabase;
let closedPort: number;
beforeAll(async () => {
  db = await freshDatabase();
  closedPort = await freePort();
});
afterAll(async () => db?.drop());

/** The error a promise rejects with. */
async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected a failure");
}

describe("PostgreSQL errors", () => {
  it("names PostgreSQL for a refused connection of the service's pool", async () => {
    const url = `postgres://u:p@127.0.0.1:${closedPort}/db`;
    const closed: Database = await openDatabase({ url, dataDir: "/nonexistent" });
    try {
      const e = await failure(closed.pool.query("SELECT 1"));
      expect(e).toBeInstanceOf(DatabaseUnavailableError);
      expect(unavailableDatabase(e)).toBe("PostgreSQL");
    } finally {
      await closed.close();
    }
  });

  it("calls a bare refused socket unavailable without knowing whose", async () => {
    const client = new pg.Client({ connectionString: `postgres://u:p@127.0.0.1:${closedPort}/db` });
    expect(unavailableDatabase(await failure(client.connect()))).toBe("unknown");
  });

  it("names PostgreSQL for a session ended by the server (57P01) and the queries after it", async () => {
    const victim = new pg.Client({ connectionString: db.url });
    const errors: Error[] = [];
    victim.on("error", (e) => errors.push(e));
    await victim.connect();
    const pid = (victim as unknown as { processID: number }).processID;
    await db.pool.query("SELECT pg_terminate_backend($1::int, 5000)", [pid]);
    const next = await failure(victim.query("SELECT 1"));
    expect(errors.length).toBeGreaterThan(0);
    expect((errors[0] as { code?: string }).code).toBe("57P01");
    for (const e of [...errors, next]) expect(unavailableDatabase(e), (e as Error).message).toBe("PostgreSQL");
  });

  it("names PostgreSQL for the SQLSTATEs of a server that cannot serve now (class 08, 57P02, 57P03, 53300)", () => {
    for (const code of ["08006", "08001", "57P02", "57P03", "53300"]) {
      const e = Object.assign(new pg.DatabaseError("server says no", 0, "error"), { code, severity: "FATAL" });
      expect(unavailableDatabase(e), code).toBe("PostgreSQL");
    }
  });

  it("does not call SQL mistakes an outage", async () => {
    expect(isDatabaseUnavailable(await failure(db.pool.query("SELEC 1")))).toBe(false);
    await db.pool.query("CREATE TEMP TABLE t (id int PRIMARY KEY)");
    const client = await db.pool.connect();
    try {
      await client.query("CREATE TEMP TABLE u (id int PRIMARY KEY)");
      await client.query("INSERT INTO u VALUES (1)");
      const duplicate = await failure(client.query("INSERT INTO u VALUES (1)"));
      expect((duplicate as { code?: string }).code).toBe("23505");
      expect(isDatabaseUnavailable(duplicate)).toBe(false);
    } finally {
      client.release();
    }
    expect(isDatabaseUnavailable(new TypeError("x is not a function"))).toBe(false);
  });
});

describe("ClickHouse errors", () => {
  it("calls a refused connection unavailable", async () => {
    const client = createClickHouseClient({ url: `http://127.0.0.1:${closedPort}` });
    try {
      expect(isDatabaseUnavailable(await failure(client.query({ query: "SELECT 1" })))).toBe(true);
    } finally {
      await client.close();
    }
  });

  it("names ClickHouse for a request that gets no answer (the client's request timeout)", async () => {
    const silent = net.createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const { port } = silent.address() as net.AddressInfo;
    // The service's client waits 30 s for an answer; this one gives up after 200 ms.
    const quick = createClient({
      url: `http://127.0.0.1:${port}`,
      request_timeout: 200,
      log: { level: ClickHouseLogLevel.OFF },
    });
    try {
      expect(unavailableDatabase(await failure(quick.query({ query: "SELECT 1" })))).toBe("ClickHouse");
    } finally {
      await quick.close();
      silent.close();
    }
  });

  it("names ClickHouse for server errors that say it cannot answer, not for a bad query", async () => {
    const kinds = [
      ["210", "NETWORK_ERROR"],
      ["241", "MEMORY_LIMIT_EXCEEDED"],
      ["159", "TIMEOUT_EXCEEDED"],
    ];
    for (const [code, type] of kinds) {
      expect(unavailableDatabase(new ClickHouseError({ message: type, code, type })), type).toBe("ClickHouse");
    }
    const ch = await embeddedClickHouse();
    try {
      const syntax = await failure(ch.query({ query: "SELEC 1" }));
      expect(isDatabaseUnavailable(syntax)).toBe(false);
      await ch.close();
      expect(unavailableDatabase(await failure(ch.query({ query: "SELECT 1" })))).toBe("ClickHouse");
    } finally {
      await ch.close();
    }
  });
});

describe("deadlines and causes", () => {
  it("fails a read past its deadline with DatabaseUnavailableError naming the database, and aborts it", async () => {
    let aborted = false;
    const started = Date.now();
    const settlesOnAbort = (signal: AbortSignal) =>
      new Promise((resolve) => signal.addEventListener("abort", () => ((aborted = true), resolve(1))));
    const e = await failure(withDeadline("ClickHouse", 100, settlesOnAbort));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(e).toBeInstanceOf(DatabaseUnavailableError);
    expect(unavailableDatabase(e)).toBe("ClickHouse");
    expect(aborted).toBe(true);
    expect(await withDeadline("PostgreSQL", 1000, async () => 42)).toBe(42);
  });

  it("finds the outage in a cause chain and in an AggregateError (a refused dual-stack connect)", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED ::1:5432"), { code: "ECONNREFUSED" });
    const wrapped = new Error("reading repository a/b failed", { cause: new Error("wrapped", { cause: refused }) });
    expect(unavailableDatabase(wrapped)).toBe("unknown");
    expect(isDatabaseUnavailable(new AggregateError([refused, refused], ""))).toBe(true);
    const terminated = new Error("x", { cause: new Error("Connection terminated unexpectedly") });
    expect(unavailableDatabase(terminated)).toBe("PostgreSQL");
  });

  it("retries work while the database does not answer, and not otherwise", async () => {
    let tries = 0;
    const refused = () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    expect(await retryWhileUnavailable(async () => (++tries < 3 ? Promise.reject(refused()) : "done"))).toBe("done");
    expect(tries).toBe(3);
    let others = 0;
    const bug = async () => Promise.reject(new Error(`bug ${++others}`));
    await expect(retryWhileUnavailable(bug)).rejects.toThrow("bug 1");
    expect(others).toBe(1);
  });
});
