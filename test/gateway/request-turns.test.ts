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
});
