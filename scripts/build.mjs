// `npm run build` (also run by `npm ci`, as `prepare`, which skips it when the dev dependencies,
// TypeScript among them, were not installed, or when dist/ is already fresh): compiles the project with tsc into dist/
// (type errors fail the build), bundles the web dashboard into dist/web (scripts/build-web.mjs), copies the files the compiled code reads next to itself (the
// process launcher's helper, the migrations), then writes dist/.build-stamp dated when the build
// started, so that a source edited during the build makes it stale. bin/compiled-entry.js decides
// from the stamp whether `yardmaster` runs from dist/. docs/deployment.md.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freshCompiledCli, STAMP } from "../bin/compiled-entry.js";
import { buildWeb, webIsFresh } from "./build-web.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const started = new Date();
// `npm ci` runs `prepare` twice: for the project, and for its link to itself (the dependency
// "yardmaster": "file:.", which puts the command in node_modules/.bin so that `npx yardmaster`
// runs it instead of installing a copy of the project). The second finds the first's build fresh.
if (process.env.npm_lifecycle_event === "prepare" && freshCompiledCli(root, {}) !== null && webIsFresh(root)) {
  console.log("dist/ is fresh: no build needed");
  process.exit(0);
}
const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
// An install without dev dependencies (`npm ci --omit=dev`) has no TypeScript: it runs from source.
if (!existsSync(tsc)) {
  if (process.env.npm_lifecycle_event === "prepare") {
    console.log("TypeScript is not installed (no dev dependencies): no build; the yardmaster command runs from source");
    process.exit(0);
  }
  console.error("build failed: TypeScript is not installed; run npm ci (with the dev dependencies) first");
  process.exit(1);
}
try {
  execFileSync(process.execPath, [tsc, "-p", path.join(root, "tsconfig.json")], { cwd: root, stdio: "inherit" });
} catch {
  console.error("build failed: tsc reported errors (above)");
  process.exit(1);
}

/** Files under services/ that the compiled code reads at run time, by name. */
const ASSET = /\.(cjs|sql)$/;
let copied = 0;
function copyAssets(dir) {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) copyAssets(relative);
    else if (ASSET.test(entry.name)) {
      mkdirSync(path.join(root, "dist", dir), { recursive: true });
      cpSync(path.join(root, relative), path.join(root, "dist", relative));
      copied++;
    }
  }
}
copyAssets("services");

// The web dashboard (dist/web), bundled by Vite: scripts/build-web.mjs.
let web = false;
try {
  web = buildWeb(root);
} catch {
  console.error("build failed: the dashboard's type check or bundle failed (above)");
  process.exit(1);
}

const stamp = path.join(root, STAMP);
writeFileSync(stamp, `built ${started.toISOString()}\n`);
utimesSync(stamp, started, started);
console.log(`built dist/ (${copied} assets copied${web ? ", dashboard in dist/web" : ""})`);
