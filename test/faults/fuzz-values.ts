/**
 * The fault fuzzer's loose values (fuzz.test.ts): a value of any JSON type, and a query parameter
 * value (numbers, instants at and past the edges of the Timestamp range, hostile strings), which
 * both the REST and the Connect generators draw on.
 */
import fc from "fast-check";

/** A query parameter value: strings, integers past 64 bits, instants in and out of range, hostile text. */
export const queryValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.integer().map(String),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String),
  fc.date({ min: new Date(-1e14), max: new Date(1e14), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom(
    "2026-01-01T00:00:00",
    "2026-01-01T00:00:00+14:00",
    "1700000000",
    "action.queue.merged",
    "success",
    "main",
    "' OR 1=1 --",
    "\\",
    "%00",
    "a".repeat(300),
  ),
  // The edges of the Timestamp range, a day no calendar has, and the character PostgreSQL refuses.
  fc.constantFrom(
    "0001-01-01T00:00:00Z",
    "9999-12-31T23:59:59Z",
    "0000-12-31T23:59:59Z",
    "2026-02-30T00:00:00Z",
    "0001-01-01T00:00:00+01:00",
    "a\u0000b",
  ),
);
/** A value of any JSON type, biased to the shapes the bodies hold. */
export const anyValue = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
);
