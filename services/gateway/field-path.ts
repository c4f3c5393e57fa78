/**
 * Resolution of field paths ("owner", "filter.pr_number") against request descriptors, used at boot
 * for the variables and `body` of google.api.http rules and per request for query parameter names.
 * Intermediate elements must be singular message fields; the last must be a singular scalar or
 * enum (for a path variable) or any field (for a query parameter, whose type decides the coercion).
 */
import type { DescField, DescMessage } from "@bufbuild/protobuf";

/** The fields along a path, first to last. */
export type FieldChain = DescField[];

/**
 * Resolves a path whose elements are proto names or, when `allowJsonNames`, lowerCamel JSON names.
 * @returns the chain, or a sentence saying which element is wrong (for boot errors and 422s).
 */
export function resolveFieldPath(desc: DescMessage, path: string[], allowJsonNames: boolean): FieldChain | string {
  const chain: DescField[] = [];
  let current: DescMessage | undefined = desc;
  for (const [i, name] of path.entries()) {
    if (!current) return `"${path.slice(0, i).join(".")}" is not a message field, so it has no field "${name}"`;
    const field: DescField | undefined = current.fields.find(
      (f) => f.name === name || (allowJsonNames && f.jsonName === name),
    );
    if (!field) return `${current.typeName} has no field "${name}"`;
    chain.push(field);
    const last = i === path.length - 1;
    if (!last) {
      if (field.fieldKind !== "message") return `"${path.slice(0, i + 1).join(".")}" is not a singular message field`;
      current = field.message;
    }
  }
  return chain;
}

/** Sets `value` at the chain's path in a JSON object, creating intermediate objects. */
export function setAtPath(target: Record<string, unknown>, chain: FieldChain, value: unknown): void {
  let obj = target;
  for (let i = 0; i < chain.length - 1; i++) {
    const key = chain[i].name;
    const next = obj[key];
    if (next === null || typeof next !== "object" || Array.isArray(next)) obj[key] = {};
    obj = obj[key] as Record<string, unknown>;
  }
  obj[chain.at(-1)!.name] = value;
}

/** The dotted proto-name path of a chain ("filter.pr_number"). */
export const chainName = (chain: FieldChain): string => chain.map((f) => f.name).join(".");
