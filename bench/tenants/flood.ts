/**
 * The flood of `npm run bench:tenants` (docs/reliability.md "Tenants"): `loops` parallel loops,
 * each posting a 0.8 MB configuration text (flood-body.ts) to the configuration simulator of one
 * repository with a token for that repository only, and posting again as soon as it is answered.
 * Counts the answers by status.
 */
import { floodBody } from "./flood-body.js";

/** A running flood: its answers so far by HTTP status (0: no answer, the connection failed), and how to stop it. */
export interface Flood {
  answers: Map<number, number>;
  /** When it started, epoch ms. */
  startedAt: number;
  stop(): Promise<void>;
}

/** Starts `loops` loops posting to `POST {url}/v1/repos/{repository}/configuration-simulator` with `token`. */
export function startFlood(url: string, repository: string, token: string, loops: number): Flood {
  const body = floodBody();
  const answers = new Map<number, number>();
  let stopped = false;
  const count = (status: number) => answers.set(status, (answers.get(status) ?? 0) + 1);
  const target = `${url}/v1/repos/${repository}/configuration-simulator`;
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const running = Array.from({ length: loops }, async () => {
    while (!stopped) {
      try {
        const res = await fetch(target, { method: "POST", headers, body });
        await res.arrayBuffer();
        count(res.status);
      } catch {
        count(0);
      }
    }
  });
  return {
    answers,
    startedAt: Date.now(),
    async stop() {
      stopped = true;
      await Promise.all(running);
    },
  };
}
