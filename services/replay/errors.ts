/**
 * The error of `yardmaster replay` for bad input or a replay that could not go on: its message
 * names the option (`--range`, `--break`...) or the step at fault, and the CLI prints it as one
 * line with exit status 1 (docs/replay.md "Exit status").
 */
export class ReplayError extends Error {
  override readonly name = "ReplayError";
}
