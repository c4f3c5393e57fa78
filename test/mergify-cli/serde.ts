/**
 * serde's decoding rules as zod, for the translations of the client's structs: a field typed
 * `#[serde(default)] Option<T>` may be missing or null; `#[serde(default)] Vec<T>` may be missing
 * but not null; a field without `default` is required and not null; unknown fields are ignored
 * (none of the structs uses `deny_unknown_fields`), as zod objects do.
 */
import { z } from "zod";

/** `#[serde(default)] Option<T>`. */
export const opt = <T extends z.ZodType>(t: T) => t.nullish();
/** `#[serde(default)] Vec<T>`. */
export const vec = <T extends z.ZodType>(t: T) => z.array(t).optional();
/** `u64`. */
export const u64 = z.number().int().nonnegative();
