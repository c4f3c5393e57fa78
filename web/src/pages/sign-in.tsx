/**
 * Sign-in (docs/dashboard.md "Signing in"): the credential, checked at once by listing the
 * repositories it reaches (ListRepositories): a refused credential is an error here, with the
 * service's message, and the tab keeps nothing. After a session ended because the service stopped
 * accepting its credential, the form says so.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { useState } from "preact/hooks";
import { queue } from "../api/clients.js";
import { navigate } from "../router.js";
import { endedBecause, signIn, signOut } from "../session.js";

/** The sign-in form. */
export function SignIn() {
  const [error, setError] = useState<string | null>(endedBecause());
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const credential = String(form.get("token") ?? "").trim();
    if (!credential) return setError("Token: give the admin key or a repository token.");
    setBusy(true);
    try {
      await queue.listRepositories({}, { headers: { authorization: `Bearer ${credential}` } });
      signIn(credential);
      navigate(window.location.pathname === "/sign-in" ? "/" : window.location.pathname + window.location.search);
    } catch (err) {
      const c = ConnectError.from(err);
      signOut();
      setError(
        c.code === Code.Unauthenticated || c.code === Code.PermissionDenied
          ? `This token was refused: ${c.rawMessage}. Give the admin key (.yardmaster/admin-key) or a token from yardmaster token create.`
          : `The service could not be reached: ${c.rawMessage}`,
      );
    } finally {
      setBusy(false);
    }
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
        {error && (
          <p role="alert" class="error" data-testid="sign-in-error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
