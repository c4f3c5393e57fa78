/**
 * The admin key's verification kept per connection (docs/rest-json.md "Cost of the transcoder",
 * docs/auth.md "The admin key"). A client on a keep-alive connection sends the same
 * `Authorization` header with every request; verifying the admin key (a SHA-256 of the bearer and
 * a constant-time compare) cost about 3-15 µs of a 60-110 µs REST request. Once a connection's
 * header has authenticated as the admin key, a later request on that connection carrying the
 * very same header string gets the same principal without hashing.
 * - Only the admin key is kept: it is the process's configuration and cannot change while the
 *   process runs. A service token can be revoked and a platform token lose its access at any
 *   moment, so those are authenticated on every request, as before.
 * - Kept per connection, not in a process-wide table: the header compared is one this
 *   connection's own client sent and proved, so the comparison (not constant-time) tells a
 *   client nothing it does not already know; a header that differs is authenticated in full.
 * - Nothing outlives the connection (a WeakMap keyed by its socket). Over HTTP/2 (h2c) Node gives
 *   each stream a socket object of its own, so there the key is still verified per request.
 */
import type { FastifyRequest } from "fastify";
import type { Authorizer, Principal } from "../auth/index.js";

interface Verified {
  header: string;
  principal: Principal;
}

const verified = new WeakMap<object, Verified>();

/**
 * The principal of the request's `Authorization` header when this connection already proved that
 * very header to be the admin key; else undefined (authenticate it with {@link authenticateOnConnection}).
 */
export function knownPrincipal(req: FastifyRequest): Principal | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const kept = verified.get(req.socket);
  return kept !== undefined && kept.header === header ? kept.principal : undefined;
}

/**
 * Authenticates the request's `Authorization` header (auth/ Authorizer.authenticate) and, when it
 * is the admin key, keeps it for the connection's next requests.
 * @throws ConnectError UNAUTHENTICATED as Authorizer.authenticate does
 */
export async function authenticateOnConnection(authorizer: Authorizer, req: FastifyRequest): Promise<Principal> {
  const header = req.headers.authorization;
  const principal = await authorizer.authenticate(header);
  if (principal.kind === "admin" && typeof header === "string" && req.socket)
    verified.set(req.socket, { header, principal });
  return principal;
}
