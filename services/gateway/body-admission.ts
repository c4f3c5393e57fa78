/**
 * Large REST bodies and the API's share of the worker threads (docs/reliability.md "Tenants"). A
 * body over offload's inline limit is parsed in the API's worker pool as its caller's task, so the
 * caller must be known before the body is read:
 * - a request that may carry a large body (a `content-length` over the limit, or none, on a method
 *   with a body) is authenticated as it arrives; when its caller is over its share of the pool, it
 *   is answered 429 with `Retry-After` at once, its body unread (a flood of large bodies costs the
 *   event loop headers, not parses);
 * - a large body whose bearer does not authenticate is not parsed: the transcoder answers 403 as
 *   for any request (auth first: docs/architecture.md "A REST request").
 * The principal found is kept for the transcoder, which does not authenticate the request twice.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { callerKey, type Authorizer, type Principal } from "../auth/index.js";
import { apiRefusal, INLINE_JSON_CHARACTERS } from "../offload/index.js";
import { publicError, restError } from "./error-body.js";

const principals = new WeakMap<FastifyRequest, Principal>();

/** The principal authenticated as the request arrived (large bodies only), if any. */
export function arrivedPrincipal(req: FastifyRequest): Principal | undefined {
  return principals.get(req);
}

/** Whether the request may carry a body over the inline limit. */
function mayBeLarge(req: FastifyRequest): boolean {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return false;
  const length = req.headers["content-length"];
  return length === undefined || Number(length) > INLINE_JSON_CHARACTERS;
}

/**
 * The onRequest hook of the REST routes (see the module comment). A callback hook, not an async
 * one: a request that cannot carry a large body (a GET) passes it without a promise.
 */
export function bodyAdmission(authorizer: Authorizer) {
  return (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void => {
    if (!mayBeLarge(req)) return done();
    admit(authorizer, req, reply).then(
      (refused) => {
        // A refused request is answered: it goes no further (done is not called).
        if (!refused) done();
      },
      (e: Error) => done(e),
    );
  };
}

/** Authenticates a request that may carry a large body; answers 429 when its caller is over its share. Whether it answered. */
async function admit(authorizer: Authorizer, req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  let principal: Principal;
  try {
    principal = await authorizer.authenticate(req.headers.authorization);
  } catch {
    return false;
  }
  principals.set(req, principal);
  const refusal = apiRefusal(callerKey(principal));
  if (refusal === null) return false;
  const requestId = String(req.id);
  const { status, headers, body } = restError(publicError(refusal, requestId), requestId);
  reply.code(status).headers(headers).type("application/json; charset=utf-8").send(JSON.stringify(body));
  return true;
}

/**
 * The caller whose task a large body's parse is, or null when its bearer does not authenticate
 * (the body is then left unparsed: the transcoder answers 403).
 */
export async function bodyCaller(req: FastifyRequest, authorizer: Authorizer): Promise<string | null> {
  const known = principals.get(req);
  if (known !== undefined) return callerKey(known);
  try {
    const principal = await authorizer.authenticate(req.headers.authorization);
    principals.set(req, principal);
    return callerKey(principal);
  } catch {
    return null;
  }
}
