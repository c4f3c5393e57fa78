/**
 * Absolute `Link` targets (RFC 8288 §3.1 lets a target be relative, but clients such as Mergify's
 * CLI parse it as an absolute URL: `next_cursor_from_link` in crates/mergify-core/src/http.rs of
 * github.com/Mergifyio/mergify-cli; docs/mergify-cli.md). An implementation writes path-absolute
 * targets (`</v1/repos/...>`); the gateway resolves them against the service's public origin:
 * `PUBLIC_URL` when set (docs/deployment.md), else the request's own scheme and host. The request's
 * scheme and host come from Fastify (`request.protocol`, `request.host`), which reads
 * `X-Forwarded-Proto` and `X-Forwarded-Host` only from a peer that `TRUST_PROXY` trusts, as
 * Fastify's `trustProxy` and Express's `trust proxy` do; without it a client cannot choose the
 * host written in the links it is sent.
 */

/** What the origin of a request is read from: Fastify's request (protocol and host). */
export interface RequestOrigin {
  protocol: string | undefined;
  host: string;
}

/**
 * The public origin of a request, without a trailing slash: `publicUrl` (its path kept, e.g.
 * `https://ci.example/yardmaster`) when given, else `<protocol>://<host>`; null when the request
 * names no host (then the links stay path-absolute).
 */
export function publicOrigin(publicUrl: string | undefined, req: RequestOrigin): string | null {
  if (publicUrl !== undefined) return publicUrl.replace(/\/+$/, "");
  if (req.host === "") return null;
  return `${req.protocol ?? "http"}://${req.host}`;
}

/**
 * A `Link` header value with every path-absolute target (`</...>`, not `<//...>`) prefixed by
 * `origin`; other targets (already absolute) are kept.
 */
export function absoluteLinks(value: string, origin: string): string {
  return value.replace(/<(\/(?!\/)[^>]*)>/g, (_, path: string) => `<${origin}${path}>`);
}
