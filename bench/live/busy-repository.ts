/**
 * The busy repository of `npm run bench:live`: a feeder that appends activity log events to one
 * repository at a steady rate (AppendEvents over Connect JSON, one event per call, as the queue's
 * own transactions write them one by one) and pauses / unpauses its queue every second (each a
 * committed change of the queue state). It records when each pause change was committed (its
 * answer came back).
 */

/** A running feeder: `stop()` resolves when its last call ended. */
export interface Feeder {
  /** Epoch ms at which each queue state change was answered (committed). */
  stateChanges: number[];
  appended: number;
  stop(): Promise<void>;
}

/** Starts feeding `owner/repository` at `eventsPerSecond` on the server at `url`. */
export function startFeeder(
  url: string,
  adminKey: string,
  owner: string,
  repository: string,
  eventsPerSecond: number,
): Feeder {
  const headers = { authorization: `Bearer ${adminKey}`, "content-type": "application/json" };
  let stopped = false;
  let key = 0;
  const feeder: Feeder = { stateChanges: [], appended: 0, stop: async () => {} };
  const events = (async () => {
    const interval = 1000 / eventsPerSecond;
    let next = performance.now();
    while (!stopped) {
      const res = await fetch(`${url}/yardmaster.v1.ActivityLogService/AppendEvents`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          idempotency_key: `bench-live-${process.pid}-${++key}`,
          events: [
            {
              type: "queue.pause.update",
              repository: `${owner}/${repository}`,
              trigger: "@bench",
              metadata: {
                reason: `bench ${key}`,
                updated_by: { type: "user", id: 1, name: "bench" },
                updated_by_staff: false,
              },
            },
          ],
        }),
      });
      if (res.status !== 200) throw new Error(`AppendEvents answered ${res.status}: ${await res.text()}`);
      feeder.appended++;
      next += interval;
      await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
    }
  })();
  const pauses = (async () => {
    let paused = false;
    while (!stopped) {
      const path = `${url}/v1/repos/${owner}/${repository}/merge-queue/pause`;
      const res = paused
        ? await fetch(path, { method: "DELETE", headers })
        : await fetch(path, { method: "PUT", headers, body: JSON.stringify({ reason: "bench" }) });
      if (res.status >= 300) throw new Error(`pause answered ${res.status}: ${await res.text()}`);
      feeder.stateChanges.push(Date.now());
      paused = !paused;
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();
  feeder.stop = async () => {
    stopped = true;
    await Promise.all([events, pauses]);
  };
  return feeder;
}
