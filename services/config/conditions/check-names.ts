/**
 * Qualified check names (docs/domain.md §2.1 rule 6, docs/conditions.md "Values"): the value
 * of a check attribute (`check-*`, `check`, the legacy `status-*` and `check-success-or-neutral`)
 * may name the app that posts the check, `@<app-slug>/<check-name>`. A value starting with "@"
 * that is not of that form is a configuration error. Patterns (`~=`, `*=`) are matched as
 * written and not read here.
 */
import type { AttributeSpec } from "./attributes.js";
import { ValueError } from "./value-error.js";

const APP_SLUG = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function problem(value: string): string | null {
  const slash = value.indexOf("/");
  if (slash === -1) return `the "/<check-name>" part is missing`;
  const app = value.slice(1, slash);
  if (app === "") return 'the app slug between "@" and "/" is missing';
  if (!APP_SLUG.test(app)) return `"${app}" is not an app slug (letters, digits, "-", "_" and ".")`;
  if (value.slice(slash + 1).trim() === "") return 'the check name after "/" is missing';
  return null;
}

/**
 * Refuses a malformed qualified check name (docs/domain.md §2.1 rule 6).
 * @param spec the attribute of the leaf; attributes that hold no checks are not checked
 * @param value a literal value (`=`, `!=` or an ordering operator), quotes removed
 * @throws ValueError naming the value, the expected form `@<app-slug>/<check-name>` and the part
 *   that is missing or wrong, for a value starting with "@" on a check attribute.
 */
export function refuseMalformedCheckName(spec: AttributeSpec, value: string): void {
  if (spec.checkStates === undefined || !value.startsWith("@")) return;
  const reason = problem(value);
  if (reason !== null)
    throw new ValueError(
      `invalid check name "${value}": a check name starting with "@" names the app that posts it, @<app-slug>/<check-name>; ${reason}`,
    );
}
