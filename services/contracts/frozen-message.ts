/**
 * Shared messages (docs/reliability.md "Load"): an answer many requests send (a merge queue
 * status, a cached `/logs` event) is deeply frozen, so nothing can change it while it is being
 * sent, and marked as shared: the gateway's REST writer then keeps its JSON text (and the bytes of
 * a whole answer) instead of writing it again for every request (gateway/rest-json.ts). Plain data
 * and protobuf-es messages alike.
 */

const shared = new WeakSet<object>();

/** Freezes `value` and everything it holds, in place; returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return Object.freeze(value);
}

/** Deeply freezes a message and marks it as shared; returns it. */
export function shareMessage<T extends object>(message: T): T {
  shared.add(deepFreeze(message));
  return message;
}

/** Whether `value` was marked by {@link shareMessage} (and so can never change). */
export function isSharedMessage(value: unknown): value is object {
  return typeof value === "object" && value !== null && Object.isFrozen(value) && shared.has(value);
}
