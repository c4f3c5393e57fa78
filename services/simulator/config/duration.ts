/**
 * Durations of the configuration format (research/domain.md §1.8), e.g. "30 s", "5 min", "60m",
 * "1 hour 30 min", "1 d 15 h 6 m 42 s". Parsing is done by the `parse-duration` library; this
 * module only adds the format's rules on top: the result is a whole, non-negative number of
 * seconds, and text the library cannot read is an error that says what is expected.
 */
import parse from "parse-duration";

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
  const seconds = parse(text, "s");
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) {
    throw new DurationError(`invalid duration "${text}": expected a number with a unit, e.g. "30 s", "5 min", "1 hour 30 min"`);
  }
  if (seconds < 0) throw new DurationError(`invalid duration "${text}": a duration cannot be negative`);
  if (!Number.isInteger(seconds)) throw new DurationError(`invalid duration "${text}": must be a whole number of seconds`);
  return seconds;
}
