/**
 * The REST transcoder: serves every google.api.http rule of the bound services on Fastify
 * (docs/architecture.md "The REST transcoder"). Per request:
 * 1. match the path in the route trie: unknown path 404, known path with another method 405 + `Allow`;
 * 2. authenticate the bearer (403 before anything else is looked at);
 * 3. build the request message from the body, then the path, then the query (a repeated field may
 *    be given several times: `?event_type=a&event_type=b`); unknown query parameters, bad values,
 *    unknown body fields and FieldRule violations are 422 naming the field;
 * 4. authorize the repository scope (403), then call the implementation directly with a light
 *    handler context;
 * 5. answer 204 with an empty body for google.protobuf.Empty, else 200 with the REST JSON of the
 *    response (rest-json.ts), copying response headers the implementation set (e.g. `Link`, whose
 *    path-absolute targets become absolute URLs: public-url.ts); a server-streaming RPC answers
 *    server-sent events (sse.ts), resuming from `Last-Event-ID`.
 * No REST route is written by hand: adding a rule to a .proto file adds the route.
 */
import { randomUUID } from "node:crypto";
import { create, fromJson, type DescMessage, type JsonObject, type MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError, createContextValues } from "@connectrpc/connect";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "pino";
import {
  checkJson,
  checkMessageRules,
  invalidField,
  isInvalidArgumentError,
  throwIfViolations,
  type FieldViolation,
} from "../contracts/index.js";
import { principalKey, type Authorizer } from "../auth/index.js";
import { arrivedPrincipal } from "./body-admission.js";
import { authenticateOnConnection, knownPrincipal } from "./connection-principals.js";
import type { CompiledRoute, ServiceBinding } from "./compile-routes.js";
import { logFailure, publicError, restError } from "./error-body.js";
import { resolveFieldPath, setAtPath } from "./field-path.js";
import { RestHandlerContext } from "./handler-context.js";
import { paramToJson } from "./param-value.js";
import { absoluteLinks, publicOrigin } from "./public-url.js";
import { restJsonAnswer } from "./rest-json.js";
import { resumeCursor, sendEventStream } from "./sse.js";
import type { RequestTurns } from "./request-turns.js";
import { restRpcOf } from "./request-metrics.js";
import { mediaTypeOf, uploadBytes } from "./upload-body.js";
import { HttpBodySchema } from "../../gen/google/api/httpbody_pb.js";
import type { RouteTrie } from "./route-trie.js";

type Impl = (request: unknown, ctx: unknown) => Promise<unknown> | unknown;

/**
 * What {@link registerTranscoder} needs: the compiled route trie, the service implementations, the
 * authorizer, a logger and the URL prefix.
 */
export interface TranscoderOptions {
  trie: RouteTrie<CompiledRoute>;
  bindings: ServiceBinding[];
  authorizer: Authorizer;
  logger: Logger;
  /** URL prefix routed to the transcoder, e.g. "/v1". */
  prefix: string;
  /** Turns the requests wait for before the implementation and before the answer (request-turns.ts). */
  turns?: RequestTurns;
  /** How long a server-sent events client may leave a write undrained before it is disconnected, ms (sse.ts). */
  streamStallMs?: number;
  /** The service's public URL (`PUBLIC_URL`): the origin of absolute `Link` targets (public-url.ts). */
  publicUrl?: string;
}

const ALL_METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"];

/** "yardmaster.v1.QueueService/GetMergeQueueStatus" of each route, made once (request-metrics.ts). */
const rpcNames = new WeakMap<CompiledRoute, string>();
function rpcName(route: CompiledRoute): string {
  let name = rpcNames.get(route);
  if (name === undefined) rpcNames.set(route, (name = `${route.service.typeName}/${route.method.name}`));
  return name;
}

/** Registers the catch-all REST route under `prefix` on a Fastify instance. */
// biome-ignore lint/suspicious/noExplicitAny: any server, request and reply types: the app runs over a server factory serving HTTP/1.1 and h2c
export function registerTranscoder(app: FastifyInstance<any, any, any, any>, opts: TranscoderOptions): void {
  const impls = new Map(opts.bindings.map((b) => [b.service.typeName, b.impl]));
  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    const requestId = String(req.id);
    const q = req.url.indexOf("?");
    const path = q < 0 ? req.url : req.url.slice(0, q);
    const found = opts.trie.match(req.method, path);
    if (found.kind === "not_found")
      return sendError(reply, new ConnectError(`no route for ${req.method} ${path}`, Code.NotFound), requestId);
    if (found.kind === "method_not_allowed") {
      reply.header("allow", found.allow.join(", "));
      return sendError(
        reply,
        new ConnectError(
          `method ${req.method} is not allowed on ${path}; allowed: ${found.allow.join(", ")}`,
          Code.Unimplemented,
        ),
        requestId,
        405,
      );
    }
    const { route, segments } = found.match;
    restRpcOf.set(req, rpcName(route));
    let uploadRefusal: number | undefined;
    try {
      // The admin key a connection already proved is not hashed again (connection-principals.ts).
      const principal =
        arrivedPrincipal(req) ?? knownPrincipal(req) ?? (await authenticateOnConnection(opts.authorizer, req));
      const input = buildRequest(
        route,
        segments,
        route.upload ? undefined : req.body,
        q < 0 ? "" : req.url.slice(q + 1),
      );
      if (route.upload) {
        // The raw body of an upload route (upload-body.ts), inflated when gzipped; 413 past its limit.
        const data = await uploadBytes(route.upload, req.body, req.headers).catch((e: unknown) => {
          if (e instanceof ConnectError && e.code === Code.ResourceExhausted) uploadRefusal = 413;
          throw e;
        });
        const field = Array.isArray(route.body) ? route.body[0] : null;
        if (field)
          (input as Record<string, unknown>)[field.localName] = create(HttpBodySchema, {
            contentType: mediaTypeOf(req.headers["content-type"]),
            data,
          });
      }
      await opts.authorizer.authorize(principal, route.method, input as Record<string, unknown>);
      const fn = impls.get(route.service.typeName)?.[route.method.localName] as Impl | undefined;
      if (!fn)
        throw new ConnectError(
          `${route.method.parent.typeName}.${route.method.name} is not implemented`,
          Code.Unimplemented,
        );
      const values = createContextValues().set(principalKey, principal);
      if (route.method.methodKind === "server_streaming") {
        const abort = new AbortController();
        reply.raw.once("close", () => abort.abort());
        const fields = input as { cursor?: string };
        fields.cursor ??= resumeCursor(route.method.input, req.headers);
        const ctx = new RestHandlerContext(
          route.service,
          route.method,
          "GET",
          req.url,
          req.headers,
          values,
          abort.signal,
        );
        const stream = (await fn(input, ctx)) as AsyncIterable<unknown>;
        const toError = (e: unknown) => {
          const err = publicError(e, requestId);
          logFailure(opts.logger, err, e, { requestId, rpc: route.method.name });
          return err;
        };
        const stallMs = opts.streamStallMs ?? 30_000;
        return sendEventStream(reply, route.method.output, stream, { requestId, stallMs, abort, toError });
      }
      const ctx = new RestHandlerContext(route.service, route.method, req.method, req.url, req.headers, values);
      await opts.turns?.turn();
      const res = await fn(input, ctx);
      await opts.turns?.turn();
      ctx.setResponseHeaders((k, v) => {
        const origin = k === "link" ? publicOrigin(opts.publicUrl, req) : null;
        reply.header(k, origin === null ? v : absoluteLinks(v, origin));
      });
      if (route.method.output.typeName === "google.protobuf.Empty") return reply.code(204).send();
      // The RPC's implementation returns its output message or that message's init shape: typed per
      // RPC by Connect, unknown here where one path serves every RPC.
      const init = (res ?? {}) as MessageInitShape<DescMessage>;
      const message = res && typeof res === "object" && "$typeName" in res ? res : create(route.method.output, init);
      return reply
        .code(route.successStatus)
        .type("application/json; charset=utf-8")
        .send(restJsonAnswer(route.method.output, message));
    } catch (e) {
      const err = publicError(e, requestId);
      logFailure(opts.logger, err, e, { requestId, rpc: route.method.name });
      return sendError(reply, err, requestId, uploadRefusal);
    }
  };
  app.route({ method: ALL_METHODS, url: `${opts.prefix}/*`, handler });
}

/** Writes the REST error body and its headers (error-body.ts). */
export function sendError(reply: FastifyReply, e: ConnectError, requestId: string, status?: number) {
  const { status: s, headers, body } = restError(e, requestId);
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  // Set here too: a URL the router cannot decode is answered before the onSend hook is in place.
  reply.header("x-request-id", requestId);
  return reply
    .code(status ?? s)
    .type("application/json; charset=utf-8")
    .send(JSON.stringify(body));
}

/**
 * Body, then path, then query -> a validated request message. Every violation found is reported
 * together (docs/errors.md): a bad parameter is left out of the message, and the rest is still
 * decoded and checked against its FieldRules.
 * @throws InvalidArgumentError listing every violation of the body, the path and the query
 */
export function buildRequest(route: CompiledRoute, segments: string[], body: unknown, query: string): unknown {
  const input = route.method.input;
  const obj: JsonObject = {};
  const violations: FieldViolation[] = [];
  if (route.body === "*") {
    if (body !== undefined) {
      throwIfViolations(checkJson(input, body, "proto3"));
      Object.assign(obj, body);
    }
  } else if (route.body) {
    if (body !== undefined) {
      const target = route.body.at(-1)!;
      if (target.fieldKind === "message") throwIfViolations(checkJson(target.message, body, "proto3", target.name));
      setAtPath(obj, route.body, body);
    }
  } else if (body !== undefined && body !== null && !(typeof body === "object" && Object.keys(body).length === 0)) {
    throw invalidField("body", `${route.httpMethod} ${route.template.source} takes no request body`);
  }
  for (const v of route.variables) {
    const raw = v.end === -1 ? segments.slice(v.start).join("/") : segments.slice(v.start, v.end).join("/");
    const field = v.chain.at(-1)!;
    try {
      setAtPath(obj, v.chain, paramToJson(field, field.name, [raw]));
    } catch (e) {
      collectInvalid(e, violations);
    }
  }
  if (query) {
    if (route.body === "*")
      throw invalidField(
        query.split("=")[0],
        "query parameters are not accepted when the body holds the whole request",
      );
    const grouped = new Map<string, string[]>();
    for (const [k, val] of new URLSearchParams(query)) {
      const list = grouped.get(k);
      if (list) list.push(val);
      else grouped.set(k, [val]);
    }
    for (const [name, values] of grouped) {
      try {
        const chain = resolveFieldPath(input, name.split("."), true);
        if (typeof chain === "string") throw invalidField(name, "unknown query parameter");
        if (route.pathFields.has(chain[0].name))
          throw invalidField(name, "is set by the path and cannot be given in the query");
        if (Array.isArray(route.body) && route.body[0].name === chain[0].name)
          throw invalidField(name, "is set by the body");
        setAtPath(obj, chain, paramToJson(chain.at(-1)!, name, values));
      } catch (e) {
        collectInvalid(e, violations);
      }
    }
  }
  let message;
  try {
    message = fromJson(input, obj);
  } catch (e) {
    throw invalidField("body", (e as Error).message);
  }
  const ruleViolations = checkMessageRules(input as DescMessage, message);
  if (violations.length > 0) {
    // A parameter already reported is not reported again as, say, missing.
    const reported = new Set(violations.map((v) => v.field));
    violations.push(...ruleViolations.filter((v) => !reported.has(v.field)));
    throwIfViolations(violations);
  }
  throwIfViolations(ruleViolations);
  return message;
}

/** Adds the violations of an InvalidArgumentError to `violations`; rethrows any other error. */
function collectInvalid(e: unknown, violations: FieldViolation[]): void {
  if (!isInvalidArgumentError(e)) throw e;
  violations.push(...e.violations);
}

/** Fastify request ids: random UUIDs, also sent back as `x-request-id`. */
export const genRequestId = (): string => randomUUID();
