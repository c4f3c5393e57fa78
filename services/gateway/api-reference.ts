/**
 * The published API description (docs/api.md "OpenAPI document and API reference"):
 * - `GET /openapi.json`: the OpenAPI 3.1 document generated from the protos (gen/openapi.json,
 *   tools/protoc-gen-openapi/) by the same rule reading as the transcoder;
 * - `GET /docs`: an API reference page rendering it with Swagger UI, whose files are served from
 *   the `swagger-ui-dist` package by this process (no CDN, works offline).
 * Both are public (no credentials): the document holds no data, only the interface.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import openApiDocument from "../../gen/openapi.json" with { type: "json" };
import type { FastifyInstance } from "fastify";

/** Swagger UI files served under /docs/, by name -> media type. */
const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "index.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Yardmaster API reference</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="stylesheet" href="/docs/index.css">
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/swagger-ui-standalone-preset.js"></script>
<script src="/docs/initializer.js"></script>
</body>
</html>
`;

const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: "StandaloneLayout",
  });
};
`;

/** The OpenAPI document served at /openapi.json (parsed gen/openapi.json). */
export const OPENAPI_DOCUMENT: Readonly<Record<string, unknown>> = openApiDocument;

const documentText = JSON.stringify(openApiDocument);
const assetDir = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
const assetCache = new Map<string, Promise<Buffer>>();

/** Registers GET /openapi.json, /docs and /docs/<Swagger UI file> (404 for another file name). */
// biome-ignore lint/suspicious/noExplicitAny: any server, request and reply types (the app's, app.ts)
export function registerApiReference(app: FastifyInstance<any, any, any, any>): void {
  app.get("/openapi.json", async (_req, reply) => reply.type("application/json; charset=utf-8").send(documentText));
  app.get("/docs", async (_req, reply) => reply.type("text/html; charset=utf-8").send(PAGE));
  app.get("/docs/initializer.js", async (_req, reply) =>
    reply.type("text/javascript; charset=utf-8").send(INITIALIZER),
  );
  app.get<{ Params: { file: string } }>("/docs/:file", async (req, reply) => {
    const type = Object.hasOwn(ASSETS, req.params.file) ? ASSETS[req.params.file] : undefined;
    if (type === undefined) return reply.callNotFound();
    let body = assetCache.get(req.params.file);
    if (!body) assetCache.set(req.params.file, (body = readFile(path.join(assetDir, req.params.file))));
    return reply
      .type(type)
      .header("cache-control", "public, max-age=3600")
      .send(await body);
  });
}
