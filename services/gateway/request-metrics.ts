/**
 * Request durations by protocol, RPC and status (services/metrics, docs/observability.md
 * "Requests"): a Connect interceptor for Connect, gRPC and gRPC-Web (the protocol told by the
 * request's content type; the status is the Connect code name, "ok" on success), and an
 * `onResponse` hook for REST under `/v1/` (the status is the HTTP status; the RPC is the route the
 * transcoder matched, `unmatched` for a path no route serves). Other paths (/healthz, /metrics,
 * /docs, webhooks) are not RPCs and are not counted.
 */
import { ConnectError, type Interceptor } from "@connectrpc/connect";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Protocol, RequestFigures } from "../metrics/index.js";
import { codeName } from "./http-status.js";

/** Where request figures go (metrics/ Metrics.observeRequest). */
export type ObserveRequest = (figures: RequestFigures) => void;

/** The RPC each REST request was routed to ("yardmaster.v1.QueueService/GetMergeQueueStatus"), set by the transcoder. */
export const restRpcOf = new WeakMap<FastifyRequest, string>();

function protocolOf(contentType: string | null): Protocol {
  const type = (contentType ?? "").toLowerCase();
  if (type.startsWith("application/grpc-web")) return "grpc-web";
  if (type.startsWith("application/grpc")) return "grpc";
  return "connect";
}

/** Times every Connect, gRPC and gRPC-Web call until its answer (or error) is ready. */
export function createMetricsInterceptor(observe: ObserveRequest): Interceptor {
  return (next) => async (req) => {
    const started = performance.now();
    const figures = (status: string) => ({
      protocol: protocolOf(req.header.get("content-type")),
      rpc: `${req.service.typeName}/${req.method.name}`,
      status,
      seconds: (performance.now() - started) / 1000,
    });
    try {
      const res = await next(req);
      observe(figures("ok"));
      return res;
    } catch (e) {
      observe(figures(codeName(ConnectError.from(e).code)));
      throw e;
    }
  };
}

/** An onResponse hook timing REST requests under `prefix` ("/v1/"); a callback hook: no promise per request. */
export function restMetricsHook(observe: ObserveRequest, prefix: string) {
  return (req: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    try {
      if (req.url.startsWith(prefix))
        observe({
          protocol: "rest",
          rpc: restRpcOf.get(req) ?? "unmatched",
          status: String(reply.statusCode),
          seconds: reply.elapsedTime / 1000,
        });
    } finally {
      done();
    }
  };
}
