/**
 * The browser session's credential and repositories (docs/dashboard.md "Signing in"): given once,
 * kept in sessionStorage, so they last while the tab lives and are gone when it closes. The
 * token is any credential of docs/auth.md: the admin key reaches every repository, a repository
 * token the repositories it names.
 */
const TOKEN = "yardmaster.token";
const REPOSITORIES = "yardmaster.repositories";

/** "owner/repository" names, as the user gave them. */
export type RepositoryName = string;

/** The bearer credential of this tab, or null before sign-in. */
export function token(): string | null {
  return sessionStorage.getItem(TOKEN);
}

/** The repositories this tab shows on its first page, in the order given. */
export function repositories(): RepositoryName[] {
  return JSON.parse(sessionStorage.getItem(REPOSITORIES) ?? "[]") as RepositoryName[];
}

/** Keeps the credential and the repositories for this tab. */
export function signIn(credential: string, repos: RepositoryName[]): void {
  sessionStorage.setItem(TOKEN, credential.trim());
  sessionStorage.setItem(REPOSITORIES, JSON.stringify(repos));
}

/** Adds a repository to the list (no duplicate, compared case-insensitively as GitHub does). */
export function addRepository(name: RepositoryName): void {
  const list = repositories();
  if (!list.some((r) => r.toLowerCase() === name.toLowerCase())) list.push(name);
  sessionStorage.setItem(REPOSITORIES, JSON.stringify(list));
}

/** Forgets the credential and the repositories. */
export function signOut(): void {
  sessionStorage.removeItem(TOKEN);
  sessionStorage.removeItem(REPOSITORIES);
}

/** Parses "owner/repository" as the API's path parameters check them; null when it is not one. */
export function parseRepository(text: string): { owner: string; repository: string } | null {
  const m = /^([a-zA-Z0-9-]{1,40})\/([\w.-]{1,100})$/.exec(text.trim());
  return m ? { owner: m[1], repository: m[2] } : null;
}
