/**
 * Which errors say that a database does not answer (docs/errors.md "Outages"; docs/reliability.md
 * "Database outages"): the one classification the gateway (503 `unavailable` with `Retry-After`),
 * the queue runner (retry soon, blame no input), the outbox relay and the local CI use.
 *
 * A database is unavailable when:
 * - PostgreSQL refuses or drops the connection: SQLSTATE class 08 (connection exception), 57P01
 *   (admin_shutdown), 57P02 (crash_shutdown), 57P03 (cannot_connect_now: starting up or shutting
 *   down), 53300 (too_many_connections); node-postgres's own "Connection terminated", "not
 *   queryable" and connection-timeout errors;
 * - ClickHouse does not answer: the client's request timeout ("Timeout error."), an aborted
 *   request, a closed embedded connection, or a server error of the kinds that say so
 *   ({@link CLICKHOUSE_UNAVAILABLE_CODES});
 * - the socket fails: ECONNREFUSED, ECONNRESET, EPIPE, ETIMEDOUT and the like;
 * - a {@link DatabaseUnavailableError} (a read that outlived its deadline, deadline.ts).
 * The error's `cause` chain (and an AggregateError's errors, as Node gives for a refused
 * dual-stack connect) is searched. SQL errors about the data (a syntax error, a constraint) are
 * not outages: they stay 500 `internal`.
 */

/** The databases Yardmaster talks to, as named in messages and `/readyz`. */
export type DatabaseName = "PostgreSQL" | "ClickHouse";

/** Seconds a client is told to wait before retrying a request refused during an outage (`Retry-After`). */
export const RETRY_AFTER_SECONDS = 5;

/**
 * A database did not answer (in time): thrown by {@link withDeadline}-style guards and by code that
 * knows which database failed. `database` is null when it is not known.
 */
export class DatabaseUnavailableError extends Error {
  override readonly name = "DatabaseUnavailableError";
  constructor(
    readonly database: DatabaseName | null,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** SQLSTATEs outside class 08 that say the server cannot serve this connection now. */
const PG_UNAVAILABLE_SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300"]);
/** node-postgres's own errors for a connection that died, was refused or timed out. */
const PG_MESSAGES = new RegExp(
  [
    "Connection terminated",
    "Client has encountered a connection error and is not queryable",
    "Client was closed and is not queryable",
    "timeout exceeded when trying to connect",
    "Query read timeout",
    "Cannot use a pool after calling end on the pool",
  ].join("|"),
);
/**
 * ClickHouse error codes that say the server cannot answer now: 159 TIMEOUT_EXCEEDED, 202
 * TOO_MANY_SIMULTANEOUS_QUERIES, 203 NO_FREE_CONNECTION, 209 SOCKET_TIMEOUT, 210 NETWORK_ERROR,
 * 241 MEMORY_LIMIT_EXCEEDED, 242 TABLE_IS_READ_ONLY, 425 SYSTEM_ERROR, 999 KEEPER_EXCEPTION
 * (https://github.com/ClickHouse/ClickHouse/blob/master/src/Common/ErrorCodes.cpp).
 */
export const CLICKHOUSE_UNAVAILABLE_CODES: ReadonlySet<string> = new Set([
  "159",
  "202",
  "203",
  "209",
  "210",
  "241",
  "242",
  "425",
  "999",
]);
/** @clickhouse/client's and chdb's messages for a request that got no answer. */
const CLICKHOUSE_MESSAGES = /^(Timeout error\.|The user aborted a request\.|ChdbConnection is closed)/;
/** Node socket and DNS errors of a peer that went away or cannot be reached. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "ENOTFOUND",
]);

/** The fields of an error the classification reads (pg, @clickhouse/client, Node and AggregateError errors). */
type Fields = {
  code?: unknown;
  severity?: unknown;
  type?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
};

/** The verdict on one error object, without its causes. */
function classifyOne(e: Fields): DatabaseName | "unknown" | null {
  if (e instanceof DatabaseUnavailableError) return e.database ?? "unknown";
  const code = typeof e.code === "string" ? e.code : undefined;
  const message = typeof e.message === "string" ? e.message : "";
  // pg's DatabaseError: a five-character SQLSTATE with a severity.
  if (code !== undefined && /^[0-9A-Z]{5}$/.test(code) && typeof e.severity === "string") {
    return code.startsWith("08") || PG_UNAVAILABLE_SQLSTATES.has(code) ? "PostgreSQL" : null;
  }
  // ClickHouseError (@clickhouse/client-common, also thrown by chdb): a numeric code and a type.
  if (code !== undefined && /^\d+$/.test(code) && typeof e.type === "string") {
    return CLICKHOUSE_UNAVAILABLE_CODES.has(code) ? "ClickHouse" : null;
  }
  if (code !== undefined && SOCKET_CODES.has(code)) return "unknown";
  if (PG_MESSAGES.test(message)) return "PostgreSQL";
  if (CLICKHOUSE_MESSAGES.test(message)) return "ClickHouse";
  return null;
}

/**
 * Which database an error says is unavailable: "PostgreSQL", "ClickHouse", "unknown" (a socket
 * error that does not say whose), or null when the error is not an outage (see the file header).
 * @param e anything thrown
 */
export function unavailableDatabase(e: unknown): DatabaseName | "unknown" | null {
  const seen = new Set<unknown>();
  const visit = (x: unknown, depth: number): DatabaseName | "unknown" | null => {
    if (x === null || typeof x !== "object" || seen.has(x) || depth > 8) return null;
    seen.add(x);
    const f = x as Fields;
    const own = classifyOne(f);
    if (own !== null && own !== "unknown") return own;
    const nested = [f.cause, ...(Array.isArray(f.errors) ? f.errors : [])].map((c) => visit(c, depth + 1));
    return nested.find((n) => n !== null && n !== "unknown") ?? own ?? nested.find((n) => n !== null) ?? null;
  };
  return visit(e, 0);
}

/** Whether an error says a database does not answer ({@link unavailableDatabase} is not null). */
export function isDatabaseUnavailable(e: unknown): boolean {
  return unavailableDatabase(e) !== null;
}
