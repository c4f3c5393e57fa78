/**
 * Request turns (docs/reliability.md "Load"): API requests yield to the service's own work. The
 * REST transcoder and the Connect interceptor wait for a turn before calling an implementation
 * and again before writing its answer; a turn is a slot in a queue that the event loop drains
 * {@link PER_TURN} at a time, once per pass (setImmediate, after the pass has polled for I/O). So
 * however many requests wait, the queue runner's callbacks (a PostgreSQL answer, a git command
 * done) run after at most that many request steps, not after all of them; with nothing else to
 * do the loop passes again at once, and requests lose nothing but a hop.
 */

/** Request steps run per pass of the event loop. */
export const PER_TURN = 4;

/** A queue of turns: `turn()` resolves when the request may take its next step. */
export interface RequestTurns {
  turn(): Promise<void>;
}

/** Builds a queue of turns, {@link PER_TURN} (or `perTurn`) per pass of the event loop. */
export function createRequestTurns(perTurn = PER_TURN): RequestTurns {
  const waiting: (() => void)[] = [];
  let scheduled = false;
  const drain = () => {
    scheduled = false;
    for (let i = 0; i < perTurn && waiting.length > 0; i++) waiting.shift()!();
    if (waiting.length > 0) schedule();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(drain);
  };
  return {
    turn: () =>
      new Promise<void>((resolve) => {
        waiting.push(resolve);
        schedule();
      }),
  };
}
