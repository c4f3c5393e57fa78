/** Types of bin/compiled-entry.js (plain JavaScript: the `yardmaster` command's entry runs before any loader). */

/** The directories whose sources the build compiles or copies. */
export declare const SOURCE_DIRS: readonly string[];
/** The build's stamp, relative to the project root (written by scripts/build.mjs). */
export declare const STAMP: string;
/** The compiled CLI, relative to the project root. */
export declare const COMPILED_CLI: string;
/**
 * The absolute path of the compiled CLI when the build in `root`/dist is fresh, else null (no
 * build, a source changed since, or YARDMASTER_FROM_SOURCE=1 in `env`).
 */
export declare function freshCompiledCli(root: string, env: Record<string, string | undefined>): string | null;
