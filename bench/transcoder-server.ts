/**
 * The server side of the transcoder benchmark: one process serving the same merge queue status
 * JSON twice, through the REST transcoder (GET /v1/repos/acme/widgets/merge-queue/status, with
 * authentication, request building, validation and the REST JSON writer) and through a plain
 * Fastify route (GET /plain/status). Prints its port on stdout.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import pino from "pino";
import { GetMergeQueueStatusResponseSchema, QueueService } from "../gen/yardmaster/v1/queue_pb.js";
import { createAuthorizer } from "../services/auth/index.js";
import { buildApp } from "../services/gateway/index.js";
import { writeRestJson } from "../services/gateway/rest-json.js";

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

const app = await buildApp({
  bindings: [{ service: QueueService, impl: { getMergeQueueStatus: async () => status } }],
  authorizer: createAuthorizer({ adminKey: ADMIN_KEY, tokens: { findToken: async () => null } }),
  logger: pino({ level: "silent" }),
  readiness: async () => ({}),
  extraRoutes: (rest) => {
    rest.get("/plain/status", async () => plainBody);
  },
});
await app.listen({ port: 0, host: "127.0.0.1" });
process.stdout.write(`port ${(app.server.address() as { port: number }).port}\n`);
process.once("SIGINT", () => process.exit(0));
