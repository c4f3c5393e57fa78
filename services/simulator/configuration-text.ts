/**
 * The configuration text of a simulator request: `service_yml`, or `mergify_yml` as Mergify's CLI
 * sends it (`mergify config simulate` posts `{"mergify_yml": ...}`, crates/mergify-config/src/
 * simulate.rs of github.com/Mergifyio/mergify-cli; docs/mergify-cli.md). An empty string counts
 * as not given, as the required `service_yml` always did.
 */
import { InvalidArgumentError } from "../contracts/index.js";

/** The text and the name of the field it came from, for the errors that point into it. */
export interface ConfigurationText {
  text: string;
  field: "service_yml" | "mergify_yml";
}

/**
 * Picks the configuration text of a request.
 * @throws InvalidArgumentError (422) naming both fields when neither or both are given
 */
export function configurationText(req: { serviceYml?: string; mergifyYml?: string }): ConfigurationText {
  const service = (req.serviceYml ?? "") !== "";
  const mergify = (req.mergifyYml ?? "") !== "";
  if (service && mergify) {
    const description = "give the configuration text once: service_yml or mergify_yml, not both";
    throw new InvalidArgumentError([
      { field: "service_yml", description },
      { field: "mergify_yml", description },
    ]);
  }
  if (mergify) return { text: req.mergifyYml!, field: "mergify_yml" };
  if (service) return { text: req.serviceYml!, field: "service_yml" };
  throw new InvalidArgumentError([
    { field: "service_yml", description: "is required (or give the text as mergify_yml)" },
  ]);
}
