/**
 * Static routes of the dashboard (docs/dashboard.md "Serving"): the built files of dist/web at
 * their paths, precompressed copies (.br, .gz written by the build) chosen by Accept-Encoding,
 * hashed assets cached for a year (immutable), index.html revalidated on every load.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply } from "fastify";

/**
 * The dashboard's own client-side paths, answered with index.html so that a reload or a shared
 * link opens the right page. Every other unknown path keeps the API's JSON 404 (docs/errors.md).
 */
export const DASHBOARD_PATHS = ["/sign-in", "/repos/*"] as const;

/** Where the dashboard's files are and how the answer without them reads. */
export interface DashboardOptions {
  /** The folder holding index.html and assets/ (default: {@link dashboardDir}). */
  dir?: string;
}

/**
 * The folder the build writes the dashboard to: `<project>/dist/web`, found from this file's
 * place whether it runs from source (services/dashboard) or compiled (dist/services/dashboard).
 */
export function dashboardDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, "package.json")) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.join(dir, "dist", "web");
}

/** Hashed file names (Vite's `name-HASH.js`) never change content: cached for a year. */
function setCacheHeaders(res: { setHeader(name: string, value: string): void }, file: string): void {
  const immutable = file.includes(`${path.sep}assets${path.sep}`);
  res.setHeader("cache-control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
}

/**
 * Registers the dashboard on `app`: `GET /` and the built files, and {@link DASHBOARD_PATHS}.
 * Without a build (an install without dev dependencies) `/` answers 404 saying how to build it.
 */
export async function registerDashboard(app: FastifyInstance, options: DashboardOptions = {}): Promise<void> {
  const root = options.dir ?? dashboardDir();
  if (!existsSync(path.join(root, "index.html"))) {
    app.get("/", async (_req, reply) =>
      reply.code(404).send({
        code: "not_found",
        message: `the dashboard is not built (no ${path.join(root, "index.html")}): run npm run build`,
      }),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root,
    prefix: "/",
    // Only the files present at start become routes: the API's paths and 404s stay untouched.
    wildcard: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: setCacheHeaders,
  });
  const index = (_req: unknown, reply: FastifyReply) => {
    reply.header("cache-control", "no-cache");
    return reply.sendFile("index.html");
  };
  for (const p of DASHBOARD_PATHS) app.get(p, index);
}
