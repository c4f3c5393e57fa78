/**
 * Request turns (services/gateway/request-turns.ts): however many requests wait, the event loop
 * polls for I/O after a few request steps, so the service's own work (the queue runner's database
 * answers, its git commands) is not held up behind every waiting request.
 */
import net from "node:net";
import { describe, expect, it } from "vitest";
import { createRequestTurns, PER_TURN } from "../../services/gateway/request-turns.js";

/** Busy-waits `ms` milliseconds: a request step that holds the event loop. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe("request turns", () => {
  it("let an I/O callback in after at most two passes of request steps, with 100 requests waiting", async () => {
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const received = new Promise<net.Socket>((r) => server.once("connection", r));
    const client = net.connect((server.address() as net.AddressInfo).port, "127.0.0.1");
    const socket = await received;
    try {
      const turns = createRequestTurns();
      let steps = 0;
      const requests = Array.from({ length: 100 }, async () => {
        await turns.turn();
        busy(2);
        steps++;
      });
      const arrived = new Promise<number>((r) => socket.once("data", () => r(steps)));
      client.write("an answer the service is waiting for");
      expect(await arrived).toBeLessThanOrEqual(2 * PER_TURN);
      await Promise.all(requests);
      expect(steps).toBe(100);
    } finally {
      client.destroy();
      socket.destroy();
      server.close();
    }
  });

  it("grant a request its turn at once when the pass has turns left: no hop of the event loop", async () => {
    const turns = createRequestTurns();
    let passed = false;
    setImmediate(() => {
      passed = true;
    });
    await turns.turn();
    await turns.turn();
    expect(passed).toBe(false);
  });

  it("grant at most PER_TURN turns per pass, whether taken at once or queued", async () => {
    const turns = createRequestTurns();
    let pass = 0;
    let ticking = true;
    const tick = () => {
      pass++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const perPass = new Map<number, number>();
    const take = async () => {
      await turns.turn();
      perPass.set(pass, (perPass.get(pass) ?? 0) + 1);
    };
    // Requests arriving together, then more arriving during later passes.
    const first = Array.from({ length: 3 * PER_TURN }, take);
    await new Promise((r) => setImmediate(r));
    const later = Array.from({ length: 2 * PER_TURN }, take);
    await Promise.all([...first, ...later]);
    ticking = false;
    expect([...perPass.values()].reduce((a, b) => a + b, 0)).toBe(5 * PER_TURN);
    expect(Math.max(...perPass.values())).toBeLessThanOrEqual(PER_TURN);
  });
});
