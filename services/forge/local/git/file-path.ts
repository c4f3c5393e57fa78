/**
 * Paths of files inside a repository as the local forge accepts them: relative, `/`-separated,
 * no empty, `.` or `..` segment, no NUL, not inside `.git`. The same rules git applies to tree
 * entries (docs/local-forge.md "Files").
 */
import { ForgeError } from "../../types.js";

/**
 * Checks a repository file path.
 * @param field name of the input for the error message (e.g. "path", "changes")
 * @throws ForgeError invalid naming the path and what is wrong with it
 */
export function validateFilePath(path: string, field = "path"): void {
  const bad = (why: string): never => {
    throw new ForgeError("invalid", `${field} "${path}" ${why}`);
  };
  if (path === "") bad("is empty");
  if (path.includes("\0")) bad("contains a NUL character");
  if (path.startsWith("/")) bad("must be relative (no leading /)");
  for (const segment of path.split("/")) {
    if (segment === "") bad("has an empty segment (// or a trailing /)");
    if (segment === "." || segment === "..") bad(`may not contain a "${segment}" segment`);
    if (segment.toLowerCase() === ".git") bad("may not name anything inside .git");
  }
}
