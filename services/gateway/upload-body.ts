/**
 * Raw request bodies for the RPCs whose `google.api.http` body is a `google.api.HttpBody` field
 * (docs/api.md "Uploads"): what `google.api.HttpBody` means in Google's HTTP transcoding — the
 * body's bytes and its media type are handed to the RPC as they are, not read as JSON. Each such
 * RPC carries an upload rule (`(yardmaster.v1.upload)`: media types, accepted content encodings,
 * size limits). Before its body is read, a request is refused 415 naming `content-type` for a media
 * type the route does not take (an upload media type sent to a JSON route included) and naming
 * `content-encoding` for an encoding it does not take; a body over `max_bytes` is 413. A gzip body
 * is inflated by zlib in libuv's thread pool (off the event loop) and stopped at
 * `max_decoded_bytes` (413: a gzip bomb never fills memory).
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { invalidField } from "../contracts/index.js";
import { inflateBounded } from "../offload/index.js";
import type { CompiledRoute } from "./compile-routes.js";
import type { UploadShape } from "./http-rules.js";
import type { RouteTrie } from "./route-trie.js";

/** The media type of a Content-Type header, lower case, without parameters. */
export const mediaTypeOf = (header: string | undefined): string => (header ?? "").split(";")[0]!.trim().toLowerCase();

/** The route a request goes to, or null. */
function routeOf(trie: RouteTrie<CompiledRoute>, req: FastifyRequest): CompiledRoute | null {
  const q = req.url.indexOf("?");
  const found = trie.match(req.method, q < 0 ? req.url : req.url.slice(0, q));
  return found.kind === "found" ? found.match.route : null;
}

/**
 * The refusal of a request's headers before its body is read (see the module comment), or null.
 * `uploadTypes` are the media types some upload route takes.
 */
export function refuseHeaders(
  route: CompiledRoute | null,
  headers: FastifyRequest["headers"],
  uploadTypes: ReadonlySet<string>,
): { error: ConnectError; status: number } | null {
  const coding = (headers["content-encoding"] ?? "").trim().toLowerCase();
  const type = mediaTypeOf(headers["content-type"]);
  const upload = route?.upload ?? null;
  if (upload === null) {
    if (coding !== "" && coding !== "identity")
      return {
        error: invalidField("content-encoding", `"${coding}" is not supported: send the request body uncompressed`),
        status: 415,
      };
    if (uploadTypes.has(type))
      return {
        error: invalidField("content-type", `"${type}" is not supported: send the body as application/json`),
        status: 415,
      };
    return null;
  }
  if (coding !== "" && coding !== "identity" && !upload.encodings.includes(coding))
    return {
      error: invalidField(
        "content-encoding",
        `"${coding}" is not supported here${upload.encodings.length ? `: send ${upload.encodings.join(" or ")}, or no encoding` : ": send the body uncompressed"}`,
      ),
      status: 415,
    };
  if (headers["content-length"] !== undefined || type !== "") {
    if (!upload.mediaTypes.includes(type))
      return {
        error: invalidField(
          "content-type",
          `${type === "" ? "is required" : `"${type}" is not supported`}: send ${upload.mediaTypes.join(" or ")}`,
        ),
        status: 415,
      };
  }
  const length = Number(headers["content-length"]);
  if (Number.isFinite(length) && length > upload.maxBytes)
    return { error: tooLarge(upload.maxBytes, "is"), status: 413 };
  return null;
}

function tooLarge(limit: number, verb: "is" | "inflates"): ConnectError {
  const mib = limit / (1024 * 1024);
  return new ConnectError(
    `body: ${verb === "is" ? "is larger than" : "inflates to more than"} ${Number.isInteger(mib) ? `${mib} MiB` : `${limit} bytes`}, the limit of this route`,
    Code.ResourceExhausted,
  );
}

/**
 * Installs the upload routes' body parsers (raw buffers, each media type's limit the largest
 * `max_bytes` of the routes taking it) and the header check, on the REST scope.
 * @param send answers a refusal with the one error body
 */
export function registerUploads(
  // biome-ignore lint/suspicious/noExplicitAny: any server, request and reply types: the app runs over a server factory serving HTTP/1.1 and h2c
  rest: FastifyInstance<any, any, any, any>,
  trie: RouteTrie<CompiledRoute>,
  routes: readonly CompiledRoute[],
  send: (reply: FastifyReply, req: FastifyRequest, error: ConnectError, status: number) => unknown,
): void {
  const limits = new Map<string, number>();
  for (const r of routes)
    for (const t of r.upload?.mediaTypes ?? []) limits.set(t, Math.max(limits.get(t) ?? 0, r.upload!.maxBytes));
  for (const [type, bodyLimit] of limits)
    rest.addContentTypeParser(type, { parseAs: "buffer", bodyLimit }, (_req, body, done) => done(null, body));
  const uploadTypes = new Set(limits.keys());
  // A callback hook, not an async one: most requests (a GET) pass it without a promise.
  rest.addHook("onRequest", (req, reply, done) => {
    const h = req.headers;
    // Without a content type, encoding or length no refusal applies, whatever the route: no route match.
    if (h["content-type"] === undefined && h["content-encoding"] === undefined && h["content-length"] === undefined)
      return done();
    const refusal = refuseHeaders(routeOf(trie, req), h, uploadTypes);
    if (refusal === null) return done();
    // The refusal is the answer: the request goes no further (done is not called).
    send(reply, req, refusal.error, refusal.status);
  });
}

/**
 * The bytes of an upload request's body, inflated when it came gzipped.
 * @throws ConnectError resource_exhausted (413) past `max_decoded_bytes`; invalid_argument naming
 *   `body` for gzip data that does not inflate
 */
export async function uploadBytes(
  upload: UploadShape,
  body: unknown,
  headers: FastifyRequest["headers"],
): Promise<Uint8Array> {
  const raw = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
  const coding = (headers["content-encoding"] ?? "").trim().toLowerCase();
  if (coding !== "gzip") return raw;
  const out = await inflateBounded(raw, upload.maxDecodedBytes);
  if (out === "too_large") throw tooLarge(upload.maxDecodedBytes, "inflates");
  if (!(out instanceof Uint8Array))
    throw invalidField("body", `is not valid gzip data (Content-Encoding: gzip): ${out.invalid}`);
  return out;
}
