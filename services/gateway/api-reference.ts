/**
 * The published API description (docs/api.md "OpenAPI document and API reference"):
 * - `GET /openapi.json`: the OpenAPI 3.1 document generated from the protos (gen/openapi.json,
 *   tools/protoc-gen-openapi/) by the same rule reading as the transcoder;
 * - `GET /docs`: an API reference page rendering it with Redoc (https://github.com/Redocly/redoc),
 *   whose standalone bundle is served from the `redoc` package by this process: no CDN, works
 *   offline, and no install script that reports to anyone (Swagger UI's package brought one).
 *   The page's Content-Security-Policy allows this origin only, so nothing is fetched from
 *   elsewhere (Redoc's footer asks for a logo on its CDN; the browser does not send that request).
 * Both are public (no credentials): the document holds no data, only the interface.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import openApiDocument from "../../gen/openapi.json" with { type: "json" };
import type { FastifyInstance } from "fastify";

/** Redoc's files served under /docs/, by name -> [file in the redoc package, media type]. */
const ASSETS: Record<string, [string, string]> = {
  "redoc.standalone.js": ["bundles/redoc.standalone.js", "text/javascript; charset=utf-8"],
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Yardmaster API reference</title>
<style>body { margin: 0; padding: 0; }</style>
</head>
<body>
<div id="redoc"></div>
<script src="/docs/redoc.standalone.js"></script>
<script src="/docs/initializer.js"></script>
</body>
</html>
`;

const INITIALIZER = `Redoc.init("/openapi.json", { expandResponses: "200", sortPropsAlphabetically: false }, document.getElementById("redoc"));
`;

/**
 * Only this origin: scripts, styles (Redoc writes its own, inline), images and the search
 * worker (a blob: URL Redoc makes); fonts fall back to the system's.
 */
const CSP =
  "default-src 'self'; script-src 'self' blob:; worker-src 'self' blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'";

/** The OpenAPI document served at /openapi.json (parsed gen/openapi.json). */
export const OPENAPI_DOCUMENT: Readonly<Record<string, unknown>> = openApiDocument;

const documentText = JSON.stringify(openApiDocument);
const assetDir = path.dirname(createRequire(import.meta.url).resolve("redoc/package.json"));
const assetCache = new Map<string, Promise<Buffer>>();

/** Registers GET /openapi.json, /docs and /docs/<Redoc file> (404 for another file name). */
// biome-ignore lint/suspicious/noExplicitAny: any server, request and reply types (the app's, app.ts)
export function registerApiReference(app: FastifyInstance<any, any, any, any>): void {
  app.get("/openapi.json", async (_req, reply) => reply.type("application/json; charset=utf-8").send(documentText));
  app.get("/docs", async (_req, reply) =>
    reply.type("text/html; charset=utf-8").header("content-security-policy", CSP).send(PAGE),
  );
  app.get("/docs/initializer.js", async (_req, reply) =>
    reply.type("text/javascript; charset=utf-8").send(INITIALIZER),
  );
  app.get<{ Params: { file: string } }>("/docs/:file", async (req, reply) => {
    const asset = Object.hasOwn(ASSETS, req.params.file) ? ASSETS[req.params.file] : undefined;
    if (asset === undefined) return reply.callNotFound();
    const [file, type] = asset;
    let body = assetCache.get(req.params.file);
    if (!body) assetCache.set(req.params.file, (body = readFile(path.join(assetDir, file))));
    return reply
      .type(type)
      .header("cache-control", "public, max-age=3600")
      .send(await body);
  });
}
