/**
 * The version of Yardmaster (`yardmaster --version`): the `version` of the project's package.json,
 * found by walking up from this module's directory (it is two levels up from the sources and three
 * from the build in dist/).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The version string of the yardmaster package, e.g. "0.1.0".
 * @throws Error when no package.json named "yardmaster" is above this module (a broken install)
 */
export function yardmasterVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, "package.json");
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
      if (pkg.name === "yardmaster" && typeof pkg.version === "string") return pkg.version;
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error("the yardmaster package.json was not found above the running code");
    dir = up;
  }
}
