/**
 * Deep copy of the engine state. The state is plain JSON data (objects, arrays, strings, numbers,
 * booleans, null), so a structural copy is exact and several times faster than structuredClone.
 */

/** A deep copy of plain JSON data. */
export function copyState<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyState(value[i]);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const key in value as Record<string, unknown>) out[key] = copyState((value as Record<string, unknown>)[key]);
  return out as T;
}
