/** What a statement of the local forge's store runs on: the pool, or a client inside a transaction. */
/** A pool (autocommit) or a client (the caller's transaction). */
export type { Queryable } from "../database.js";

/** A bigint column (returned by pg as a decimal string) as a number; every id here stays below 2^53. */
export const num = (v: unknown): number => Number(v);

/** A nullable bigint column as a number or null. */
export const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
