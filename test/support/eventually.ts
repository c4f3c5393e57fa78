/**
 * Polls an assertion until it passes or a deadline expires (end-to-end tests only, where a real
 * process works in the background; docs/architecture.md "How it is tested"). Unit tests inject time instead.
 */
export async function eventually<T>(assertion: () => Promise<T>, timeoutMs = 90_000, intervalMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await assertion();
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  }
}
