/**
 * A problem of a configuration found after schema validation (docs/configuration.md "Rules across
 * keys"), located by path: keys and list indexes from the file's root.
 */
export interface SemanticIssue {
  path: (string | number)[];
  message: string;
}
