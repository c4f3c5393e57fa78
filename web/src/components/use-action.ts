/**
 * A page's write call (quarantine, lift, a webhook added or removed, settings saved): `run(call)`
 * marks the page busy while it runs, keeps its error for the page to show (cleared by the next
 * success) and refreshes the page's data after a success. Returns what the call returned, or
 * undefined when it failed.
 */
import { useState } from "preact/hooks";

/** Runs a call, keeping its error and refreshing after a success; `busy` while it runs. */
export function useAction(refresh: () => void) {
  const [error, setError] = useState<Error>();
  const [busy, setBusy] = useState(false);
  const run = async <T>(call: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    try {
      const out = await call();
      setError(undefined);
      refresh();
      return out;
    } catch (e) {
      setError(e as Error);
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, run };
}
