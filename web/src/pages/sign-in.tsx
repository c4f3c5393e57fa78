/**
 * Sign-in (docs/dashboard.md "Signing in"): the credential, given once and kept for the tab's
 * session, and the repositories to show. Nothing is checked here: each page's calls are, and a
 * refused credential shows the service's own message there.
 */
import { useState } from "preact/hooks";
import { navigate } from "../router.js";
import { parseRepository, signIn } from "../session.js";

/** The sign-in form. */
export function SignIn() {
  const [error, setError] = useState<string | null>(null);
  const submit = (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const credential = String(form.get("token") ?? "").trim();
    const repos = String(form.get("repositories") ?? "")
      .split(/[\s,]+/)
      .filter(Boolean);
    const bad = repos.find((r) => parseRepository(r) === null);
    if (!credential) return setError("Token: give the admin key or a repository token.");
    if (bad) return setError(`Repositories: "${bad}" is not owner/repository.`);
    signIn(credential, repos);
    navigate(window.location.pathname === "/sign-in" ? "/" : window.location.pathname + window.location.search);
  };
  return (
    <main class="narrow">
      <h1>Yardmaster</h1>
      <form onSubmit={submit} aria-describedby="sign-in-help">
        <p id="sign-in-help">
          The token is kept for this browser tab only (session storage). The admin key reaches every repository; a
          repository token (<code>yardmaster token create</code>) the repositories it names.
        </p>
        <label>
          Token
          <input name="token" type="password" autoComplete="off" required />
        </label>
        <label>
          Repositories (owner/repository, one per line)
          <textarea name="repositories" rows={3} />
        </label>
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
        <button type="submit">Sign in</button>
      </form>
    </main>
  );
}
