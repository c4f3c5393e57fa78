#!/usr/bin/env node
// Adds lockfile entries for optional platform packages that this machine's npm registry does not
// serve (for example chdb's macOS and arm64 libraries). `npm install` drops them from
// package-lock.json when it cannot fetch them, and `npm ci` then refuses the lockfile
// ("Missing: @chdb/lib-darwin-arm64@ from lock file"). An entry that names the package's os/cpu
// and is marked optional is what a full registry would have written; npm ci skips it on any other
// platform. Run after every `npm install`: `node scripts/lockfile-platforms.mjs`.
import { readFileSync, writeFileSync } from "node:fs";

const PLATFORM = {
  "darwin-arm64": { os: ["darwin"], cpu: ["arm64"] },
  "darwin-x64": { os: ["darwin"], cpu: ["x64"] },
  "linux-arm64-gnu": { os: ["linux"], cpu: ["arm64"], libc: ["glibc"] },
  "linux-x64-gnu": { os: ["linux"], cpu: ["x64"], libc: ["glibc"] },
};

const lock = JSON.parse(readFileSync("package-lock.json", "utf8"));
let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `${path ? `${path}/` : ""}node_modules/${name}`.replace(
      /^node_modules\/(.*\/)?node_modules\//,
      "node_modules/$1node_modules/",
    );
    const hoisted = `node_modules/${name}`;
    if (lock.packages[key] || lock.packages[hoisted]) continue;
    const suffix = Object.keys(PLATFORM).find((p) => name.endsWith(p));
    if (!suffix) {
      console.error(`no platform known for ${name}; left as is`);
      continue;
    }
    lock.packages[hoisted] = { version, license: entry.license, optional: true, ...PLATFORM[suffix] };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
writeFileSync("package-lock.json", `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lockfile: ${added} optional platform entr${added === 1 ? "y" : "ies"} added`);
