/**
 * A clock that runs with the real one but can be moved ahead, for the runner's tests: a durable
 * timer an hour away fires when the test moves the clock past it, so the test neither waits the
 * hour nor races a short real wait on a slow machine.
 */
export interface ShiftedClock {
  /** Now, milliseconds since the epoch (UTC): the real time plus every shift so far. */
  now(): number;
  /** Moves the clock ahead so that `now()` is at least `at` (epoch ms); never moves it back. */
  advanceTo(at: number): void;
}

/** A clock starting at the real time. */
export function shiftedClock(): ShiftedClock {
  let offsetMs = 0;
  const now = () => Date.now() + offsetMs;
  return {
    now,
    advanceTo(at) {
      offsetMs += Math.max(0, at - now());
    },
  };
}
