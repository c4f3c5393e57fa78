/**
 * The server side of the transcoder benchmark (`npm run bench`): one process serving the same
 * merge queue status JSON through the REST transcoder and through a plain Fastify route, on
 * several Fastify instances (one port each), each with one layer of the transcoder turned off:
 * - `full`: as in production: authentication, request building and FieldRule validation, request
 *   turns, request metrics (prom-client), the REST JSON writer; it also serves the plain route
 *   (GET /plain/status) and the process's CPU time (GET /cpu: user + system, µs);
 * - `no-auth`: an authorizer that answers the admin principal without looking at the bearer;
 * - `no-turns`: no request turns (request-turns.ts);
 * - `no-metrics`: no request metrics;
 * - `no-encoding`: the implementation answers a shared message (contracts/frozen-message.ts), whose
 *   JSON bytes the writer keeps: the JSON encoding is done once, not per request.
 * Routing, request building and validation cannot be turned off without changing the answer; they
 * are timed in this process before it listens (µs of CPU per call), with the authentication of a
 * connection that already proved the admin key, and the writer's bytes made with `Buffer.from`
 * and with the slab (answer-bytes.ts: server-sent events use it; a whole answer made for one
 * request is sent as the writer's text, docs/rest-json.md "The answer's path"). Prints one line of JSON:
 * `{"ports": {variant: port}, "inProcess": {layer: µs}}`.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import pino from "pino";
import { GetMergeQueueStatusResponseSchema, QueueService } from "../gen/yardmaster/v1/queue_pb.js";
import { createAuthorizer } from "../services/auth/index.js";
import { checkMessageRules, shareMessage } from "../services/contracts/index.js";
import { buildApp, compileRoutes } from "../services/gateway/index.js";
import { authenticateOnConnection, knownPrincipal } from "../services/gateway/connection-principals.js";
import { restJsonBody, writeRestJson } from "../services/gateway/rest-json.js";
import { buildRequest } from "../services/gateway/transcoder.js";
import { createMetrics } from "../services/metrics/index.js";

const at = timestampFromDate(new Date("2026-11-22T10:00:00Z"));
const pull = (n: number) => ({
  number: BigInt(n),
  title: `Change ${n}`,
  url: `https://example.test/acme/widgets/pull/${n}`,
  author: { id: 1000n + BigInt(n), login: `dev${n}` },
  queuedAt: at,
  priorityAlias: "medium",
  priorityRuleName: "default",
  labels: ["ready"],
  hostLabels: [{ id: 7n, name: "ready", color: "00ff00", default: false }],
  scopes: [],
});
const batch = (i: number) => ({
  id: `00000000-0000-4000-8000-00000000000${i}`,
  parentIds: i > 1 ? [`00000000-0000-4000-8000-00000000000${i - 1}`] : [],
  name: `Batch ${i}`,
  status: { code: "running" },
  startedAt: at,
  estimatedMergeAt: at,
  estimatedCiFinishAt: at,
  scopes: [],
  queueRuleName: "default",
  checksSummary: { passed: 1, total: 3 },
  pullRequests: [pull(i * 10 + 1), pull(i * 10 + 2), pull(i * 10 + 3)],
  subBatches: [],
});
const status = create(GetMergeQueueStatusResponseSchema, {
  scopeQueues: {
    __default__: {
      values: [1, 2].map((i) => ({
        kind: { case: "stringValue" as const, value: `00000000-0000-4000-8000-00000000000${i}` },
      })),
    },
  },
  batches: [batch(1), batch(2)],
  waitingPullRequests: [pull(90), pull(91)],
  automaticConflictResolutionUnsupported: true,
  mode: "serial",
});
const plainBody = JSON.parse(writeRestJson(GetMergeQueueStatusResponseSchema, status));

/** The admin API key the benchmark server is started with. */
export const ADMIN_KEY = "yma_benchmark_key_0123456789";

const authorizer = createAuthorizer({ adminKey: ADMIN_KEY, tokens: { findToken: async () => null } });
const admin = await authorizer.authenticate(`Bearer ${ADMIN_KEY}`);
const shared = shareMessage(structuredClone(status));

interface Variant {
  auth?: false;
  turns?: false;
  metrics?: false;
  encoding?: false;
}
const VARIANTS: Record<string, Variant> = {
  full: {},
  "no-auth": { auth: false },
  "no-turns": { turns: false },
  "no-metrics": { metrics: false },
  "no-encoding": { encoding: false },
};

async function serve(name: string, v: Variant): Promise<number> {
  const answer = v.encoding === false ? shared : status;
  const app = await buildApp({
    bindings: [{ service: QueueService, impl: { getMergeQueueStatus: async () => answer } }],
    authorizer:
      v.auth === false
        ? { authenticate: async () => admin, authorize: (p, m, r) => authorizer.authorize(p, m, r) }
        : authorizer,
    logger: pino({ level: "silent" }),
    readiness: async () => ({}),
    metrics: v.metrics === false ? undefined : createMetrics(),
    requestTurns: v.turns !== false,
    extraRoutes:
      name === "full"
        ? (rest) => {
            rest.get("/plain/status", async () => plainBody);
            rest.get("/cpu", async () => {
              const u = process.cpuUsage();
              return { micros: u.user + u.system };
            });
          }
        : undefined,
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  return (app.server.address() as { port: number }).port;
}

/** µs of CPU per call of `fn`, over `n` calls after a warm-up. */
function cpuPerCall(fn: () => unknown, n = 20_000): number {
  for (let i = 0; i < 2_000; i++) fn();
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

const { trie } = compileRoutes([{ service: QueueService, impl: {} }]);
const path = "/v1/repos/acme/widgets/merge-queue/status";
const found = trie.match("GET", path);
if (found.kind !== "found") throw new Error(`${path} matches no route`);
const { route, segments } = found.match;
const request = buildRequest(route, segments, undefined, "") as never;
// A request on a connection that already proved the admin key (connection-principals.ts).
const onConnection = { headers: { authorization: `Bearer ${ADMIN_KEY}` }, socket: {} } as never;
await authenticateOnConnection(authorizer, onConnection);
const inProcess = {
  routing: cpuPerCall(() => trie.match("GET", path)),
  "request building and validation": cpuPerCall(() => buildRequest(route, segments, undefined, "")),
  validation: cpuPerCall(() => checkMessageRules(route.method.input, request)),
  authentication: cpuPerCall(() => authorizer.authenticate(`Bearer ${ADMIN_KEY}`)),
  "authentication, connection proven": cpuPerCall(() => knownPrincipal(onConnection)),
  "JSON encoding": cpuPerCall(() => writeRestJson(GetMergeQueueStatusResponseSchema, status)),
  "JSON encoding + Buffer.from": cpuPerCall(() =>
    Buffer.from(writeRestJson(GetMergeQueueStatusResponseSchema, status)),
  ),
  "JSON encoding + answer bytes": cpuPerCall(() => restJsonBody(GetMergeQueueStatusResponseSchema, status)),
  "plain JSON.stringify": cpuPerCall(() => JSON.stringify(plainBody)),
};
const ports: Record<string, number> = {};
for (const [name, v] of Object.entries(VARIANTS)) ports[name] = await serve(name, v);
process.stdout.write(`${JSON.stringify({ ports, inProcess })}\n`);
process.once("SIGINT", () => process.exit(0));
