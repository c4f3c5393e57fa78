/**
 * The gateway application: one Fastify instance serving, on one port,
 * - REST under /v1 through the transcoder (transcoder.ts),
 * - Connect, gRPC and gRPC-Web for every bound service (connect-fastify, in its own
 *   encapsulated context so its content-type parsers do not touch the REST routes; a binary
 *   request that does not decode answers invalid_argument, unparsable-request.ts),
 * - gRPC server reflection, `GET /healthz` (process up) and `GET /readyz` (databases answer),
 * - the OpenAPI document and the API reference page (`GET /openapi.json`, `GET /docs`, api-reference.ts).
 * `buildApp` does not listen; `listen` in main/ does. Route problems stop the build
 * (compile-routes.ts). Extra plain routes (the GitHub webhook) are added through `extraRoutes`.
 */
import { fastifyConnectPlugin } from "@connectrpc/connect-fastify";
import type { ConnectRouter } from "@connectrpc/connect";
import fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import type { Logger } from "pino";
import { domainErrorOf, invalidField } from "../contracts/index.js";
import type { Authorizer } from "../auth/index.js";
import { registerApiReference } from "./api-reference.js";
import { compileRoutes, type ServiceBinding } from "./compile-routes.js";
import { logFailure, publicError } from "./error-body.js";
import { dualProtocolServerFactory } from "./dual-protocol-server.js";
import { answerFastifyError, type FastifyErrorLike, type MediaScope } from "./fastify-errors.js";
import { withRefusalBodies } from "./protocol-refusals.js";
import { INLINE_JSON_CHARACTERS, parseJsonBodyBounded, WorkLimitError } from "../offload/index.js";
import { bodyAdmission, bodyCaller } from "./body-admission.js";
import { createGuardInterceptor } from "./interceptors.js";
import { createRequestTurns } from "./request-turns.js";
import { createMetricsInterceptor, restMetricsHook } from "./request-metrics.js";
import type { Metrics } from "../metrics/index.js";
import { createReflectionServices } from "./reflection.js";
import { ServerReflection } from "../../gen/grpc/reflection/v1/reflection_pb.js";
import { ServerReflection as ServerReflectionV1Alpha } from "../../gen/grpc/reflection/v1alpha/reflection_pb.js";
import { genRequestId, registerTranscoder, sendError } from "./transcoder.js";
import { withUnparsableRequestAsInvalidArgument } from "./unparsable-request.js";
import { registerUploads } from "./upload-body.js";
import { Code, ConnectError } from "@connectrpc/connect";

/** A strict UTF-8 decoder for REST request bodies: invalid byte sequences throw. */
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** The largest request body, in bytes: 4 MiB (413 beyond, docs/errors.md), on every protocol. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The gateway's Fastify instance (HTTP/1.1 and h2c on one port: dual-protocol-server.ts). */
// biome-ignore lint/suspicious/noExplicitAny: any server, request and reply types: the app runs over a server factory serving HTTP/1.1 and h2c
export type App = FastifyInstance<any, any, any, any>;

/**
 * What {@link buildApp} needs: the services to serve, the authorizer (docs/auth.md), the logger,
 * the readiness probe and extra plain routes.
 */
export interface GatewayDeps {
  /** Every service with its implementation; REST routes come from their google.api.http rules. */
  bindings: ServiceBinding[];
  authorizer: Authorizer;
  logger: Logger;
  /**
   * Readiness of the databases for /readyz: name -> error text or null when it answers. It must
   * answer promptly (main/readiness.ts bounds each probe).
   */
  readiness: () => Promise<Record<string, string | null>>;
  /** More of the /readyz body (the activity log's lag), merged after `status` and `checks`. */
  readinessDetails?: () => Promise<Record<string, unknown>>;
  /** Plain routes outside the transcoder (registered at root scope, e.g. POST /webhooks/github). */
  extraRoutes?: (app: App) => void | Promise<void>;
  /** How long a server-sent events client may leave a write undrained before it is disconnected, ms. */
  streamStallMs?: number;
  /** `PUBLIC_URL`: the origin of absolute `Link` targets (public-url.ts); absent = the request's own. */
  publicUrl?: string;
  /**
   * `TRUST_PROXY`, Fastify's `trustProxy`: which peers' X-Forwarded-Proto / X-Forwarded-Host are
   * believed (true: any; a number: hops; addresses or CIDRs, comma-separated); default none.
   */
  trustProxy?: boolean | number | string;
  /**
   * The process's metrics: request durations are recorded in it, and `GET /metrics` serves it
   * without credentials (docs/observability.md "Access"). Without it, neither.
   */
  metrics?: Pick<Metrics, "observeRequest" | "scrape">;
  /**
   * Whether requests take turns with the service's own work (request-turns.ts); default true.
   * False only to measure what the turns cost (`npm run bench`, bench/transcoder.ts).
   */
  requestTurns?: boolean;
}

/** Builds the application (not listening). @throws RouteCompileError for a bad google.api.http rule. */
export async function buildApp(deps: GatewayDeps): Promise<App> {
  const { trie, routes } = compileRoutes(deps.bindings);
  const app: App = fastify({
    http2: true,
    serverFactory: dualProtocolServerFactory as never,
    loggerInstance: deps.logger,
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: genRequestId,
    bodyLimit: MAX_BODY_BYTES,
    trustProxy: deps.trustProxy ?? false,
    // A URL the router cannot decode gets the one error body too (fastify-errors.ts).
    frameworkErrors: (err: FastifyErrorLike, req: FastifyRequest, reply: FastifyReply) =>
      answerWith(reply, req, err, "any-protocol"),
  } as never);

  // Fastify's refusals outside the REST routes (Connect, gRPC and gRPC-Web paths, unknown paths):
  // set before the plugins are registered, so that their scopes inherit it.
  app.setErrorHandler((err, req, reply) => {
    // A refusal of a route outside the transcoder (the GitHub webhook) or of a Connect handler.
    if (err instanceof ConnectError || domainErrorOf(err) !== null) return answerError(reply, req, err, deps.logger);
    return answerWith(reply, req, err as FastifyErrorLike, "any-protocol", deps.logger);
  });

  app.addHook("onSend", (req, reply, _payload, done) => {
    reply.header("x-request-id", String(req.id));
    done();
  });

  // Every protocol's requests take turns with the service's own work (request-turns.ts).
  const turns = deps.requestTurns === false ? undefined : createRequestTurns();
  await app.register(fastifyConnectPlugin, {
    routes: (router: ConnectRouter) => {
      for (const b of deps.bindings) router.service(b.service, b.impl as never);
      const reflection = createReflectionServices(deps.bindings.map((b) => b.service));
      router.service(ServerReflection, reflection.v1);
      router.service(ServerReflectionV1Alpha, reflection.v1alpha);
      // The plugin serves router.handlers once this returns: each answers an unparsable binary request as invalid_argument.
      // Connect's own bodyless refusals (415, 405, 505) get the one error body (protocol-refusals.ts).
      router.handlers.splice(
        0,
        router.handlers.length,
        ...router.handlers.map((h) => withRefusalBodies(withUnparsableRequestAsInvalidArgument(h))),
      );
    },
    interceptors: [
      ...(deps.metrics ? [createMetricsInterceptor((f) => deps.metrics!.observeRequest(f))] : []),
      createGuardInterceptor(deps.authorizer, deps.logger, turns),
    ],
    // The REST limit for Connect, gRPC and gRPC-Web too (their bodies are read by Connect, not Fastify).
    readMaxBytes: MAX_BODY_BYTES,
    // Connect JSON with proto field names, like the REST surface (docs/architecture.md "JSON field names").
    jsonOptions: { useProtoFieldName: true },
  });

  await app.register(async (rest) => {
    // A large body's caller over its share of the worker threads: 429 before the body is read.
    rest.addHook("onRequest", bodyAdmission(deps.authorizer));
    // A compressed body is refused (415 naming the header), not misread as JSON (docs/rest-json.md);
    // upload routes take their raw media types and encodings, within their limits (upload-body.ts).
    registerUploads(rest, trie, routes, (reply, req, error, status) => sendError(reply, error, String(req.id), status));
    // Request bodies parsed losslessly: integers beyond 2^53 arrive as exact decimal strings.
    // JSON is the only body media type: Fastify's text/plain parser is removed, so a body sent as
    // text/plain is refused with 415 naming content-type instead of being read as a JSON string.
    rest.removeContentTypeParser(["application/json", "text/plain"]);
    rest.addContentTypeParser("application/json", { parseAs: "buffer" }, (req, body, done) => {
      let text: string;
      try {
        // RFC 8259 §8.1: JSON text is UTF-8. Invalid bytes are refused, not replaced by U+FFFD.
        text = UTF8.decode(body as Buffer);
      } catch {
        return done(
          invalidField("body", "is not valid UTF-8 (RFC 8259 §8.1): send the JSON text encoded as UTF-8"),
          undefined,
        );
      }
      if (text.trim() === "") return done(null, undefined);
      if (text.length <= INLINE_JSON_CHARACTERS) {
        parseJsonBodyBounded(text, "").then(
          (value) => done(null, value),
          (e: Error) => done(bodyParseError(e), undefined),
        );
        return;
      }
      // A large body is parsed off the event loop (services/offload), as its caller's task
      // (body-admission.ts); one whose bearer does not authenticate is not parsed (403 follows).
      bodyCaller(req, deps.authorizer)
        .then((caller) => (caller === null ? undefined : parseJsonBodyBounded(text, caller)))
        .then(
          (value) => done(null, value),
          (e: Error) => done(bodyParseError(e), undefined),
        );
    });
    rest.setErrorHandler((err, req, reply) => {
      if (err instanceof ConnectError || domainErrorOf(err) !== null) return answerError(reply, req, err, deps.logger);
      return answerWith(reply, req, err as FastifyErrorLike, "rest", deps.logger);
    });
    registerTranscoder(rest, {
      trie,
      bindings: deps.bindings,
      authorizer: deps.authorizer,
      logger: deps.logger,
      prefix: "/v1",
      turns,
      streamStallMs: deps.streamStallMs,
      publicUrl: deps.publicUrl,
    });
    rest.get("/healthz", async () => ({ status: "ok" }));
    registerApiReference(rest);
    const metrics = deps.metrics;
    if (metrics) {
      rest.addHook(
        "onResponse",
        restMetricsHook((f) => metrics.observeRequest(f), "/v1/"),
      );
      rest.get("/metrics", async (_req, reply) => {
        const { contentType, text } = await metrics.scrape();
        return reply.type(contentType).send(text);
      });
    }
    rest.get("/readyz", async (_req, reply) => {
      const [checks, details] = await Promise.all([deps.readiness(), deps.readinessDetails?.() ?? {}]);
      const ok = Object.values(checks).every((v) => v === null);
      const named = Object.fromEntries(Object.entries(checks).map(([k, v]) => [k, v ?? "ok"]));
      return reply.code(ok ? 200 : 503).send({ status: ok ? "ready" : "not_ready", checks: named, ...details });
    });
    if (deps.extraRoutes) await deps.extraRoutes(rest);
  });

  app.setNotFoundHandler((req, reply) =>
    sendError(
      reply,
      new ConnectError(`no route for ${req.method} ${req.url.split("?")[0]}`, Code.NotFound),
      String(req.id),
    ),
  );
  return app;
}

/**
 * What a body that did not parse answers: not JSON (a syntax error, or nesting deeper than the
 * parser's stack) is 422 naming `body`; a body over the worker pool's time or memory limit is
 * resource_exhausted; a busy pool its own refusal (429 or 503, with Retry-After); anything else is
 * an internal error.
 */
function bodyParseError(e: Error): Error {
  if (e instanceof ConnectError || domainErrorOf(e) !== null) return e;
  if (e instanceof WorkLimitError)
    return new ConnectError(`the request body ${e.message} to parse`, Code.ResourceExhausted);
  if (e.name === "SyntaxError" || e.name === "RangeError")
    return invalidField("body", `is not valid JSON: ${e.message}`);
  return e;
}

/** Answers a Fastify error with the one error body (fastify-errors.ts); an internal one is logged. */
/** Answers an error a handler or route threw (a ConnectError or a refusal) in the one error body, logged as it deserves. */
function answerError(reply: FastifyReply, req: FastifyRequest, err: unknown, logger: Logger) {
  const answered = publicError(err, String(req.id));
  logFailure(logger, answered, err, { requestId: req.id });
  return sendError(reply, answered, String(req.id));
}

function answerWith(
  reply: FastifyReply,
  req: FastifyRequest,
  err: FastifyErrorLike,
  scope: MediaScope,
  logger?: Logger,
) {
  const { error, status } = answerFastifyError(err, req.headers["content-type"], scope);
  // An internal answer whose cause is a database outage becomes unavailable (503, Retry-After).
  const answered = publicError(error, String(req.id));
  if (logger) logFailure(logger, answered, err, { requestId: req.id });
  const keepStatus = answered.code !== Code.Internal && answered.code !== Code.Unavailable;
  return sendError(reply, answered, String(req.id), keepStatus ? status : undefined);
}
