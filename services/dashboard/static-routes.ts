/**
 * Static routes of the dashboard (docs/dashboard.md "Serving and building"): dist/web/assets/* (Vite's hashed
 * files, cached for a year as immutable) with their precompressed copies (.br, .gz written by the
 * build) chosen by Accept-Encoding, and index.html, revalidated on every load, at / and at the
 * dashboard's own paths.
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

/**
 * Registers the dashboard on `app`: `GET /`, `/assets/*` and {@link DASHBOARD_PATHS}.
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
  // The bundle's files (hashed names), read at each request: a rebuild needs no restart.
  await app.register(fastifyStatic, {
    root: path.join(root, "assets"),
    prefix: "/assets/",
    preCompressed: true,
    cacheControl: false,
    setHeaders: (res) => res.setHeader("cache-control", "public, max-age=31536000, immutable"),
  });
  // index.html names the current bundle: revalidated on every load.
  const index = (_req: unknown, reply: FastifyReply) => {
    reply.header("cache-control", "no-cache");
    return reply.sendFile("index.html", root);
  };
  app.get("/", index);
  for (const p of DASHBOARD_PATHS) app.get(p, index);
}
