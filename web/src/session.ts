/**
 * The browser session's credential (docs/dashboard.md "Signing in"): given once, kept in
 * sessionStorage, so it lasts while the tab lives and is gone when it closes. The credential is
 * any of docs/auth.md: the admin key reaches every repository, a repository token the repositories
 * it names; the dashboard lists them itself (ListRepositories). When the service stops accepting
 * it (revoked, or the admin key changed), the session ends with a message the sign-in page shows.
 */
const TOKEN = "yardmaster.token";
const ENDED = "yardmaster.ended";

const listeners = new Set<() => void>();

/** Calls `f` whenever the session starts or ends; returns the unsubscribe function. */
export function onSessionChange(f: () => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}

const changed = () => {
  for (const l of listeners) l();
};

/** The bearer credential of this tab, or null before sign-in. */
export function token(): string | null {
  return sessionStorage.getItem(TOKEN);
}

/** Keeps the credential for this tab. */
export function signIn(credential: string): void {
  sessionStorage.setItem(TOKEN, credential.trim());
  sessionStorage.removeItem(ENDED);
  changed();
}

/** Forgets the credential. */
export function signOut(): void {
  sessionStorage.removeItem(TOKEN);
  sessionStorage.removeItem(ENDED);
  changed();
}

/** Ends the session because the service refused the credential; `why` is shown on the sign-in page. */
export function endSession(why: string): void {
  if (!token()) return;
  sessionStorage.removeItem(TOKEN);
  sessionStorage.setItem(ENDED, why);
  changed();
}

/** Why the last session ended, or null when it was not ended by a refusal. */
export function endedBecause(): string | null {
  return sessionStorage.getItem(ENDED);
}

/** Parses "owner/repository" as the API's path parameters check them; null when it is not one. */
export function parseRepository(text: string): { owner: string; repository: string } | null {
  const m = /^([a-zA-Z0-9-]{1,40})\/([\w.-]{1,100})$/.exec(text.trim());
  return m ? { owner: m[1], repository: m[2] } : null;
}
