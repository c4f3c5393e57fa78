/**
 * The JUnit reports a check wrote, read from its work tree before the tree is removed
 * (docs/ci-insights.md "Local CI"): the files matching the check's `junit` globs (picomatch,
 * relative to the work tree, `.git` never searched), bounded because the script is the
 * repository's: at most {@link MAX_REPORT_FILES} files, {@link MAX_REPORT_BYTES} each and
 * {@link MAX_REPORTS_TOTAL_BYTES} together, found among at most {@link MAX_SCANNED_ENTRIES} entries;
 * what is left out is said in the notes. Symbolic links are not followed.
 */
import { lstat, readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import picomatch from "picomatch";

/** Most report files read per check. */
export const MAX_REPORT_FILES = 100;
/** Largest report file read, bytes (20 MiB, the upload route's limit). */
export const MAX_REPORT_BYTES = 20 * 1024 * 1024;
/** Most bytes of reports read per check (50 MiB). */
export const MAX_REPORTS_TOTAL_BYTES = 50 * 1024 * 1024;
/** Most directory entries looked at while searching. */
export const MAX_SCANNED_ENTRIES = 200_000;

/** A report file: its path relative to the work tree, and its bytes. */
export interface ReportFile {
  path: string;
  bytes: Buffer;
}

/** The files found, in path order, and notes on what was left out. */
export async function readReportFiles(
  dir: string,
  globs: readonly string[],
): Promise<{ files: ReportFile[]; notes: string[] }> {
  const notes: string[] = [];
  if (globs.length === 0) return { files: [], notes };
  const match = picomatch([...globs], { dot: true });
  const found: string[] = [];
  let scanned = 0;
  const walk = async (at: string): Promise<void> => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      if (++scanned > MAX_SCANNED_ENTRIES) return;
      const full = join(at, entry.name);
      const rel = relative(dir, full).split(sep).join("/");
      if (entry.isDirectory()) {
        if (rel !== ".git") await walk(full);
      } else if (entry.isFile() && match(rel)) found.push(rel);
    }
  };
  await walk(dir);
  if (scanned > MAX_SCANNED_ENTRIES) notes.push(`the search for reports stopped after ${MAX_SCANNED_ENTRIES} entries`);
  found.sort();
  if (found.length > MAX_REPORT_FILES)
    notes.push(`${found.length - MAX_REPORT_FILES} report files beyond ${MAX_REPORT_FILES} were not read`);
  const files: ReportFile[] = [];
  let total = 0;
  for (const path of found.slice(0, MAX_REPORT_FILES)) {
    const size = (await lstat(join(dir, path))).size;
    if (size > MAX_REPORT_BYTES || total + size > MAX_REPORTS_TOTAL_BYTES) {
      notes.push(`${path} (${size} bytes) was not read: past the size limits of reports`);
      continue;
    }
    total += size;
    files.push({ path, bytes: await readFile(join(dir, path)) });
  }
  if (files.length === 0 && notes.length === 0) notes.push(`no file matched ${globs.join(", ")}`);
  return { files, notes };
}
