/**
 * How long the event loop was held while some work ran: the longest gap between ticks of a 2 ms
 * timer, the gap to the end included (a timer cannot fire while the loop is held, and work that
 * holds it to its end would otherwise show no gap). Used by `npm run bench:config` and the
 * worker pool's tests.
 */

/** Runs `work`; returns its wall time and the longest the event loop was held meanwhile (milliseconds). */
export async function heldWhile(work: () => Promise<unknown>): Promise<{ wall: number; held: number }> {
  let last = performance.now();
  let held = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    held = Math.max(held, now - last);
    last = now;
  }, 2);
  const started = performance.now();
  try {
    await work();
  } finally {
    clearInterval(tick);
  }
  const wall = performance.now() - started;
  held = Math.max(held, performance.now() - last);
  return { wall, held };
}
