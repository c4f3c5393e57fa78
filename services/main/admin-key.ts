/**
 * The admin application key (docs/auth.md): YARDMASTER_ADMIN_KEY when set; otherwise generated once
 * (`yma_` + 32 random bytes, base64url), stored in `<dataDir>/admin-key` (mode 0600) and reused.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/** The path of the generated admin key file in a data directory: `<dataDir>/admin-key`. */
export const adminKeyFile = (dataDir: string) => path.join(dataDir, "admin-key");

/** The admin key and whether it was generated now (so the caller can print it). */
export async function loadOrCreateAdminKey(
  dataDir: string,
  fromEnv?: string,
): Promise<{ key: string; generated: boolean; source: string }> {
  if (fromEnv) return { key: fromEnv, generated: false, source: "YARDMASTER_ADMIN_KEY" };
  const file = adminKeyFile(dataDir);
  try {
    return { key: (await readFile(file, "utf8")).trim(), generated: false, source: file };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  await mkdir(dataDir, { recursive: true });
  const key = `yma_${randomBytes(32).toString("base64url")}`;
  await writeFile(file, `${key}\n`, { mode: 0o600, flag: "wx" });
  return { key, generated: true, source: file };
}

/**
 * The admin key for CLI clients: YARDMASTER_ADMIN_KEY, else the data directory's file.
 * @throws Error naming the file and YARDMASTER_ADMIN_KEY when neither gives a key
 */
export async function readAdminKey(dataDir: string, fromEnv?: string): Promise<string> {
  if (fromEnv) return fromEnv;
  try {
    return (await readFile(adminKeyFile(dataDir), "utf8")).trim();
  } catch {
    throw new Error(
      `no admin key: YARDMASTER_ADMIN_KEY is not set and ${adminKeyFile(dataDir)} does not exist (the service writes it when it first starts): start it with \`npm start\` from this directory, or set YARDMASTER_DATA_DIR to its data directory, or YARDMASTER_ADMIN_KEY to its key`,
    );
  }
}

/**
 * A key shown without giving it away (docs/auth.md "The admin key"): its first characters (8 of a
 * generated key's 47: `yma_` and 4 of its 43 random ones; a quarter of a shorter given key) and "…".
 */
export function maskedKey(key: string): string {
  return `${key.slice(0, Math.min(8, Math.floor(key.length / 4)))}…`;
}
