// Vite build of the dashboard (docs/dashboard.md): web/ -> dist/web, served by the service at /.
// Each emitted JavaScript, CSS and HTML file also gets .br and .gz copies, which the server sends
// to browsers that accept them (services/dashboard), so no compression runs per request.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { defineConfig, type Plugin } from "vite";

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.resolve(here, "../dist/web");

function precompress(): Plugin {
  return {
    name: "yardmaster-precompress",
    apply: "build",
    writeBundle(_options, bundle) {
      for (const name of [...Object.keys(bundle), "index.html"]) {
        if (!/\.(js|css|html)$/.test(name)) continue;
        const file = path.join(outDir, name);
        const body = readFileSync(file);
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

export default defineConfig({
  root: here,
  base: "/",
  logLevel: "warn",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  // The precompression runs once per build and takes a second or two: no timing warning for it.
  build: {
    outDir,
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    rolldownOptions: { checks: { pluginTimings: false } },
  },
  plugins: [precompress()],
});
