// The dashboard's build (docs/dashboard.md "Serving and building"): type-checks web/ (its own tsconfig, with
// the DOM library) and bundles it with Vite into dist/web, with .br and .gz copies of each file
// (web/vite.config.ts). Run by scripts/build.mjs, so by `npm run build` and by `npm ci` (prepare).
// Vite and TypeScript are dev dependencies: an install without them gets no dashboard, and the
// server answers / with a message saying how to build it (services/dashboard).
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

/** The newest modification time (ms) of the files and folders under `dir`. */
function newest(dir) {
  let t = statSync(dir).mtimeMs;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return t;
}

/** True when dist/web holds a build newer than every file of web/ and gen/. */
export function webIsFresh(root) {
  const index = path.join(root, "dist", "web", "index.html");
  if (!existsSync(index)) return false;
  const built = statSync(index).mtimeMs;
  return newest(path.join(root, "web")) <= built && newest(path.join(root, "gen")) <= built;
}

/**
 * Type-checks and bundles the dashboard. Returns false (after saying why) when Vite is not
 * installed; throws when the type check or the bundle fails.
 */
export function buildWeb(root) {
  const vite = path.join(root, "node_modules", "vite", "bin", "vite.js");
  const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
  if (!existsSync(vite) || !existsSync(tsc)) {
    console.log("Vite is not installed (no dev dependencies): the dashboard is not built");
    return false;
  }
  execFileSync(process.execPath, [tsc, "-p", path.join(root, "web", "tsconfig.json")], { cwd: root, stdio: "inherit" });
  execFileSync(process.execPath, [vite, "build", "--config", path.join(root, "web", "vite.config.ts")], {
    cwd: root,
    stdio: "inherit",
  });
  return true;
}
