/**
 * The gateway application: one Fastify instance serving, on one port,
 * - REST under /v1 through the transcoder (transcoder.ts),
 * - Connect, gRPC and gRPC-Web for every bound service (connect-fastify, in its own
 *   encapsulated context so its content-type parsers do not touch the REST routes; a binary
 *   request that does not decode answers invalid_argument, unparsable-request.ts),
 * - gRPC server reflection, `GET /healthz` (process up) and `GET /readyz` (databases answer).
 * `buildApp` does not listen; `listen` in main/ does. Route problems stop the build
 * (compile-routes.ts). Extra plain routes (the GitHub webhook) are added through `extraRoutes`.
 */
import { fastifyConnectPlugin } from "@connectrpc/connect-fastify";
import type { ConnectRouter } from "@connectrpc/connect";
import fastify, { LogController, type FastifyInstance } from "fastify";
import { isSafeNumber, parse as parseLossless } from "lossless-json";
import type { Logger } from "pino";
import { invalidField } from "../contracts/index.js";
import type { Authorizer } from "./auth.js";
import { compileRoutes, type ServiceBinding } from "./compile-routes.js";
import { publicError } from "./error-body.js";
import { dualProtocolServerFactory } from "./dual-protocol-server.js";
import { createGuardInterceptor } from "./interceptors.js";
import { createRequestTurns } from "./request-turns.js";
import { createReflectionServices } from "./reflection.js";
import { ServerReflection } from "../../gen/grpc/reflection/v1/reflection_pb.js";
import { ServerReflection as ServerReflectionV1Alpha } from "../../gen/grpc/reflection/v1alpha/reflection_pb.js";
import { genRequestId, registerTranscoder, sendError } from "./transcoder.js";
import { withUnparsableRequestAsInvalidArgument } from "./unparsable-request.js";
import { Code, ConnectError } from "@connectrpc/connect";

/** A strict UTF-8 decoder for REST request bodies: invalid byte sequences throw. */
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** The gateway's Fastify instance (HTTP/1.1 and h2c on one port: dual-protocol-server.ts). */
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
  /** Readiness of the databases for /readyz: name -> error text or null when it answers. */
  readiness: () => Promise<Record<string, string | null>>;
  /** Plain routes outside the transcoder (registered at root scope, e.g. POST /webhooks/github). */
  extraRoutes?: (app: App) => void | Promise<void>;
}

/** Builds the application (not listening). @throws RouteCompileError for a bad google.api.http rule. */
export async function buildApp(deps: GatewayDeps): Promise<App> {
  const { trie } = compileRoutes(deps.bindings);
  const app: App = fastify({
    http2: true,
    serverFactory: dualProtocolServerFactory as never,
    loggerInstance: deps.logger,
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: genRequestId,
    bodyLimit: 4 * 1024 * 1024,
  } as never);

  app.addHook("onSend", async (req, reply) => {
    reply.header("x-request-id", String(req.id));
  });

  // Every protocol's requests take turns with the service's own work (request-turns.ts).
  const turns = createRequestTurns();
  await app.register(fastifyConnectPlugin, {
    routes: (router: ConnectRouter) => {
      for (const b of deps.bindings) router.service(b.service, b.impl as never);
      const reflection = createReflectionServices(deps.bindings.map((b) => b.service));
      router.service(ServerReflection, reflection.v1);
      router.service(ServerReflectionV1Alpha, reflection.v1alpha);
      // The plugin serves router.handlers once this returns: each answers an unparsable binary request as invalid_argument.
      router.handlers.splice(0, router.handlers.length, ...router.handlers.map(withUnparsableRequestAsInvalidArgument));
    },
    interceptors: [createGuardInterceptor(deps.authorizer, deps.logger, turns)],
    // Connect JSON with proto field names, like the REST surface (research/stack.md §5).
    jsonOptions: { useProtoFieldName: true },
  });

  await app.register(async (rest) => {
    // A compressed body is refused (415 naming the header), not misread as JSON (docs/rest-json.md).
    rest.addHook("onRequest", async (req, reply) => {
      const coding = req.headers["content-encoding"];
      if (coding === undefined || coding.trim().toLowerCase() === "identity") return;
      await sendError(reply, invalidField("content-encoding", `"${coding}" is not supported: send the request body uncompressed`), String(req.id), 415);
      return reply;
    });
    // Request bodies parsed losslessly: integers beyond 2^53 arrive as exact decimal strings.
    // JSON is the only body media type: Fastify's text/plain parser is removed, so a body sent as
    // text/plain is refused with 415 naming content-type instead of being read as a JSON string.
    rest.removeContentTypeParser(["application/json", "text/plain"]);
    rest.addContentTypeParser("application/json", { parseAs: "buffer" }, (_req, body, done) => {
      let text: string;
      try {
        // RFC 8259 §8.1: JSON text is UTF-8. Invalid bytes are refused, not replaced by U+FFFD.
        text = UTF8.decode(body as Buffer);
      } catch {
        return done(invalidField("body", "is not valid UTF-8 (RFC 8259 §8.1): send the JSON text encoded as UTF-8"), undefined);
      }
      if (text.trim() === "") return done(null, undefined);
      try {
        done(null, parseLossless(text, null, (s) => (isSafeNumber(s) ? Number(s) : s)));
      } catch (e) {
        done(invalidField("body", `is not valid JSON: ${(e as Error).message}`), undefined);
      }
    });
    rest.setErrorHandler((err, req, reply) => {
      const e = err instanceof ConnectError ? err : fastifyError(err as { statusCode?: number; message: string }, req.headers["content-type"]);
      if (e.code === Code.Internal) deps.logger.error({ err, requestId: req.id }, "request failed");
      return sendError(reply, publicError(e, String(req.id)), String(req.id), e.code === Code.Internal ? undefined : (err as { statusCode?: number }).statusCode);
    });
    registerTranscoder(rest, {
      trie, bindings: deps.bindings, authorizer: deps.authorizer, logger: deps.logger, prefix: "/v1", turns,
    });
    rest.get("/healthz", async () => ({ status: "ok" }));
    rest.get("/readyz", async (_req, reply) => {
      const checks = await deps.readiness();
      const ok = Object.values(checks).every((v) => v === null);
      return reply.code(ok ? 200 : 503).send({ status: ok ? "ready" : "not_ready", checks: Object.fromEntries(Object.entries(checks).map(([k, v]) => [k, v ?? "ok"])) });
    });
    if (deps.extraRoutes) await deps.extraRoutes(rest);
  });

  app.setNotFoundHandler((req, reply) => sendError(reply, new ConnectError(`no route for ${req.method} ${req.url.split("?")[0]}`, Code.NotFound), String(req.id)));
  return app;
}

/**
 * Maps Fastify's own errors (415, 413, malformed requests) to Connect codes for the error body; the
 * response keeps Fastify's status (413 for a body over 4 MiB, 415 for a media type other than JSON).
 */
function fastifyError(err: { statusCode?: number; message: string }, contentType: string | undefined): ConnectError {
  const status = err.statusCode ?? 500;
  if (status === 413) return new ConnectError(`request body too large: ${err.message}`, Code.ResourceExhausted);
  if (status === 415) return invalidField("content-type", `"${contentType ?? ""}" is not supported: send the body as application/json`);
  if (status >= 400 && status < 500) return new ConnectError(err.message, Code.InvalidArgument);
  return new ConnectError("internal error", Code.Internal, undefined, undefined, err);
}
