/** A silent pino logger for tests that need one; `warnings` collects warn/error messages. */
import pino from "pino";

export function testLogger() {
  const warnings: string[] = [];
  const logger = pino({ level: "warn" }, { write: (line: string) => void warnings.push(JSON.parse(line).msg) });
  return { logger, warnings };
}
