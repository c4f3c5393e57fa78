/** Human output of CLI commands: one line on stdout. */
export const out = (line: string): void => void process.stdout.write(`${line}\n`);
