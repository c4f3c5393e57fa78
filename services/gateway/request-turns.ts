/**
 * Request turns (docs/reliability.md "Load"): API requests yield to the service's own work. The
 * REST transcoder and the Connect interceptor wait for a turn before calling an implementation
 * and again before writing its answer. At most {@link PER_TURN} turns are granted per pass of
 * the event loop: the first ones of a pass at once (a resolved promise, no hop), the rest queued
 * and drained {@link PER_TURN} at a time, once per pass (setImmediate, after the pass has polled
 * for I/O). So however many requests wait, the queue runner's callbacks (a PostgreSQL answer, a
 * git command done) run after at most that many request steps, not after all of them; and a
 * request that finds the pass's turns unused loses nothing, not even a hop of the loop.
 */

/** Request steps run per pass of the event loop. */
export const PER_TURN = 4;

/** A queue of turns: `turn()` resolves when the request may take its next step. */
export interface RequestTurns {
  turn(): Promise<void>;
}

const GRANTED = Promise.resolve();

/** Builds a queue of turns, {@link PER_TURN} (or `perTurn`) per pass of the event loop. */
export function createRequestTurns(perTurn = PER_TURN): RequestTurns {
  const waiting: (() => void)[] = [];
  // Turns granted since the last drain: the pass's budget; the drain starts a new one.
  let granted = 0;
  let scheduled = false;
  const drain = () => {
    scheduled = false;
    granted = 0;
    if (waiting.length > 0) {
      const now = waiting.splice(0, perTurn);
      granted = now.length;
      for (const resolve of now) resolve();
    }
    // A new pass is scheduled while turns were granted in this one, to start the next budget.
    if (waiting.length > 0 || granted > 0) schedule();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(drain);
  };
  return {
    turn: () => {
      if (waiting.length === 0 && granted < perTurn) {
        granted++;
        schedule();
        return GRANTED;
      }
      return new Promise<void>((resolve) => {
        waiting.push(resolve);
        schedule();
      });
    },
  };
}
