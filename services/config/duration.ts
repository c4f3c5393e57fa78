/**
 * Durations of the configuration format (docs/domain.md §1.8), e.g. "30 s", "5 min", "60m",
 * "1 hour 30 min", "1 d 15 h 6 m 42 s": groups of an integer and a unit, in the order days, hours,
 * minutes, seconds, each at most once, spaces optional; units `d|day|days`, `h|hour|hours`,
 * `m|min|mins|minute|minutes`, `s|second|seconds`. The text must follow that grammar (the
 * `parse-duration` library, which computes the value, also reads "PT5M", "1 mo", "5 min ago" or
 * "30 s 30 s", none of which the format has); the result is a whole, non-negative number of
 * seconds. {@link MAX_DURATION_SECONDS} bounds the durations of a configuration file.
 */
import parse from "parse-duration";

/** docs/domain.md §1.8: at least one group, each unit at most once, days to seconds. */
const GRAMMAR =
  /^(?=\d)(?:\d+\s*(?:d|days?)\s*)?(?:\d+\s*(?:h|hours?)\s*)?(?:\d+\s*(?:m|mins?|minutes?)\s*)?(?:\d+\s*(?:s|seconds?))?$/i;

/**
 * The longest duration a configuration file may give (365 days, in seconds): a wait or a timeout
 * beyond it is a mistake, and far beyond it (1e22 s) no date can be computed from it.
 */
export const MAX_DURATION_SECONDS = 365 * 86_400;

/** Why a duration text was refused. */
export class DurationError extends Error {
  override readonly name = "DurationError";
}

/**
 * Parses a duration text into whole seconds.
 * @throws DurationError for empty, unreadable, negative or fractional-second durations.
 */
export function parseDuration(text: string): number {
  if (text.trim() === "") throw new DurationError("a duration cannot be empty");
  if (!GRAMMAR.test(text.trim())) {
    throw new DurationError(
      `invalid duration "${text}": expected whole numbers with units in the order days, hours, minutes, seconds, e.g. "30 s", "5 min", "1 hour 30 min", "1 d 15 h 6 m 42 s"`,
    );
  }
  const seconds = parse(text, "s");
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) {
    throw new DurationError(
      `invalid duration "${text}": expected a number with a unit, e.g. "30 s", "5 min", "1 hour 30 min"`,
    );
  }
  if (seconds < 0) throw new DurationError(`invalid duration "${text}": a duration cannot be negative`);
  if (!Number.isInteger(seconds))
    throw new DurationError(`invalid duration "${text}": must be a whole number of seconds`);
  return seconds;
}
