/**
 * `npm run lint:docs` (after remark-validate-links has checked the Markdown links): the citations
 * of docs pages in every tracked file, the README and layout row of every folder of services/, and
 * no tracker numbers (docs/contributing.md "Docs that cannot drift"). Prints each problem as
 * `file:line message` and exits 1 when there is one.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { trackerNumbers, undocumentedFolders } from "./house-rules.js";
import { headingsOf, type PageHeadings, type Problem, unresolvedCitations } from "./references.js";

/**
 * Files never checked: generated code, recorded fixtures, the lockfile, and this checker's own test,
 * whose planted violations are its data.
 */
const SKIPPED = /^(gen\/|test\/fixtures\/|package-lock\.json$|dist\/|test\/tools\/docs-check\.test\.ts$)/;
/** Files checked for citations and tracker numbers: text the project writes. */
const CHECKED = /\.(ts|tsx|mjs|cjs|js|md|proto|sql|ya?ml|sh|html|css)$|^\.ci\/run$/;

/** The problems of the repository at `root` (a git work tree). */
export function checkRepository(root: string): Problem[] {
  const tracked = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 << 20,
  })
    .split("\n")
    .filter((f) => f && !SKIPPED.test(f) && CHECKED.test(f) && existsSync(path.join(root, f)));
  const pages = new Map<string, PageHeadings | undefined>();
  const page = (p: string) => {
    if (!pages.has(p)) {
      const file = path.join(root, p);
      pages.set(p, existsSync(file) ? headingsOf(readFileSync(file, "utf8")) : undefined);
    }
    return pages.get(p);
  };
  const problems: Problem[] = [];
  for (const file of tracked) {
    const text = readFileSync(path.join(root, file), "utf8");
    problems.push(...unresolvedCitations(file, text, page), ...trackerNumbers(file, text));
  }
  const services = path.join(root, "services");
  const folders = readdirSync(services, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  const architecture = readFileSync(path.join(root, "docs", "architecture.md"), "utf8");
  problems.push(...undocumentedFolders(folders, (f) => existsSync(path.join(services, f, "README.md")), architecture));
  return problems;
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const problems = checkRepository(process.cwd());
  for (const p of problems) console.error(`${p.file}:${p.line} ${p.message}`);
  if (problems.length > 0) {
    console.error(
      `\n${problems.length} problem(s) in the docs' citations (docs/contributing.md "Docs that cannot drift")`,
    );
    process.exit(1);
  }
}
