/**
 * The local CI file, `.yardmaster/ci.yml`, read at the commit under test:
 *
 * ```yaml
 * checks:
 *   - name: test          # the check run's name (`check-success=test`); unique, not "yardmaster/…"
 *     run: npm test       # a bash script, run in a work tree of the commit
 *     timeout: 10 min     # optional; a duration (docs/domain.md §1.8) or whole seconds
 *     junit: reports/*.xml # optional; JUnit reports the script writes (a glob or a list), for CI Insights
 * ```
 *
 * Parsed with `yaml`, validated with `zod`; every error names its path (`checks → item 1 →
 * timeout`, items counted from 1). docs/local-forge.md "CI file".
 */
import { parseDocument } from "yaml";
import { z } from "zod";
import { DurationError, parseDuration } from "../../../config/index.js";

/** Where the CI file lives in a repository. */
export const CI_CONFIG_PATH = ".yardmaster/ci.yml";

/** One check of the CI file. */
export interface CiCheck {
  /** Check run name, trimmed, unique in the file. */
  name: string;
  /** Bash script. */
  run: string;
  /** Timeout in seconds; null = the runner's default. */
  timeoutSeconds: number | null;
  /** Globs of the JUnit reports the script writes, relative to the work tree (docs/ci-insights.md "Local CI"); empty: none. */
  reports: string[];
}

/** A parsed CI file. */
export interface CiConfig {
  checks: CiCheck[];
}

/** One problem of a CI file: where (`checks → item 2 → name`, or `(file)`) and what. */
export interface CiConfigIssue {
  path: string;
  message: string;
}

/** A CI file that does not parse or validate; `message` lists every issue, one per line. */
export class CiConfigError extends Error {
  override readonly name = "CiConfigError";
  constructor(readonly issues: readonly CiConfigIssue[]) {
    super(`${CI_CONFIG_PATH} is invalid:\n${issues.map((i) => `- ${i.path}: ${i.message}`).join("\n")}`);
  }
}

/** Error texts for zod: "is required" / "must be …" for a wrong type, "unknown key" for a typo. */
const required = (expected: string) => (issue: { code?: string; input?: unknown; keys?: string[] }) => {
  if (issue.code === "unrecognized_keys")
    return `unknown key${issue.keys!.length > 1 ? "s" : ""} ${issue.keys!.map((k) => `"${k}"`).join(", ")}`;
  if (issue.code === "invalid_type") return issue.input === undefined ? "is required" : `must be ${expected}`;
  return undefined;
};

/**
 * The largest CI file read, in bytes of UTF-8 (64 KiB: a CI file is a few lines). Checked before
 * parsing, as for a configuration (docs/configuration.md "Limits"): the YAML library's check of
 * duplicate keys compares each key with every earlier one.
 */
export const MAX_CI_FILE_BYTES = 64 * 1024;

/** Problems listed for one CI file; the others are counted in one more line. */
const MAX_LISTED_ISSUES = 100;

/** At most MAX_LISTED_ISSUES issues, then one counting the rest. */
function capped(issues: CiConfigIssue[]): CiConfigIssue[] {
  if (issues.length <= MAX_LISTED_ISSUES) return issues;
  return [
    ...issues.slice(0, MAX_LISTED_ISSUES),
    { path: "(file)", message: `and ${issues.length - MAX_LISTED_ISSUES} more problems` },
  ];
}

/** Most globs a check's `junit` may list. */
export const MAX_REPORT_GLOBS = 20;

/** The longest `timeout` a check may have, seconds (1 day). */
export const MAX_CHECK_TIMEOUT_SECONDS = 86_400;

const timeout = z
  .union([z.string(), z.number()], { error: 'must be a duration such as "10 min" or a whole number of seconds' })
  .transform((value, ctx) => {
    try {
      const seconds = typeof value === "number" ? wholeSeconds(value) : parseDuration(value);
      if (seconds < 1) throw new DurationError("must be at least 1 second");
      // A timer beyond 2^31 - 1 ms (24.8 days) would fire at once (Node's setTimeout); a day is plenty for a check.
      if (seconds > MAX_CHECK_TIMEOUT_SECONDS)
        throw new DurationError(`must be at most 1 day (${MAX_CHECK_TIMEOUT_SECONDS} seconds)`);
      return seconds;
    } catch (error) {
      ctx.issues.push({
        code: "custom",
        input: value,
        message: error instanceof Error ? error.message : String(error),
      });
      return z.NEVER;
    }
  });

const check = z.strictObject(
  {
    name: z
      .string({ error: required("a text") })
      .trim()
      .min(1, { error: "cannot be empty" })
      .max(100, { error: "must be at most 100 characters" })
      .refine((name) => !name.toLowerCase().startsWith("yardmaster/"), {
        error: 'names starting with "yardmaster/" are reserved',
      }),
    run: z
      .string({ error: required("a text (a bash script)") })
      .refine((run) => run.trim() !== "", { error: "cannot be empty" }),
    timeout: timeout.optional(),
    junit: z
      .union(
        [
          z.string(),
          z.array(z.string()).max(MAX_REPORT_GLOBS, { error: `must list at most ${MAX_REPORT_GLOBS} globs` }),
        ],
        {
          error: "must be a glob or a list of globs",
        },
      )
      .optional()
      .superRefine((value, ctx) => {
        for (const glob of typeof value === "string" ? [value] : (value ?? [])) {
          if (glob.trim() === "" || glob.startsWith("/") || glob.split("/").includes(".."))
            ctx.addIssue({ code: "custom", message: `"${glob}" must be a glob relative to the work tree` });
        }
      }),
  },
  { error: required("a mapping with name, run and optional timeout and junit") },
);

const schema = z.strictObject(
  {
    checks: z.array(check, { error: required("a list of checks") }).superRefine((checks, ctx) => {
      const firstIndex = new Map<string, number>();
      checks.forEach((c, i) => {
        const earlier = firstIndex.get(c.name);
        if (earlier === undefined) firstIndex.set(c.name, i);
        else
          ctx.addIssue({
            code: "custom",
            path: [i, "name"],
            message: `duplicate check name "${c.name}" (also item ${earlier + 1})`,
          });
      });
    }),
  },
  { error: required("a mapping with a checks list") },
);

/**
 * Parses and validates the text of a CI file.
 * @returns the checks, in file order
 * @throws CiConfigError listing its problems with their paths (YAML syntax errors with line and
 *   column; the first 100, then their count), or the file's size over MAX_CI_FILE_BYTES
 */
export function parseCiConfig(text: string): CiConfig {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > MAX_CI_FILE_BYTES)
    throw new CiConfigError([
      { path: "(file)", message: `is ${bytes} bytes long; a CI file is at most ${MAX_CI_FILE_BYTES} bytes (64 KiB)` },
    ]);
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) {
    // With prettyErrors (the default) the first line reads "<what> at line L, column C:".
    throw new CiConfigError(
      capped(
        doc.errors.map((e) => ({ path: "(file)", message: `YAML: ${e.message.split("\n")[0]!.replace(/:$/, "")}` })),
      ),
    );
  }
  const value: unknown = doc.toJS();
  if (value === null || value === undefined)
    throw new CiConfigError([{ path: "(file)", message: "is empty; expected a checks list" }]);
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new CiConfigError(capped(result.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message }))));
  }
  return {
    checks: result.data.checks.map((c) => ({
      name: c.name,
      run: c.run,
      timeoutSeconds: c.timeout ?? null,
      reports: typeof c.junit === "string" ? [c.junit] : (c.junit ?? []),
    })),
  };
}

/** `["checks", 0, "timeout"]` → `checks → item 1 → timeout`; the root is `(file)`. */
export function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(file)";
  return path.map((p) => (typeof p === "number" ? `item ${p + 1}` : String(p))).join(" → ");
}

function wholeSeconds(value: number): number {
  if (!Number.isInteger(value)) throw new DurationError(`${value} is not a whole number of seconds`);
  return value;
}
