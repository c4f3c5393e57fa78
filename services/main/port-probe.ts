/**
 * The start's first check (docs/deployment.md "The operational contract"): is the port free? A
 * port in use is reported before the databases start or migrate, naming `PORT`, instead of after a
 * minute of work; the server's own listen gives the same message should the port be taken between
 * the check and the listen.
 */
import net from "node:net";
import { SettingsError } from "./settings.js";

/** The message for a port another process listens on. */
export function portInUseMessage(host: string, port: number): string {
  return `port ${port} on ${host} is in use (another Yardmaster, or another program, listens there): stop it, or choose another port with PORT (PORT=${port === 65535 ? port - 1 : port + 1} npm start; PORT=0 picks a free one)`;
}

/**
 * Resolves when `host`:`port` can be listened on (PORT=0 always can).
 * @throws SettingsError naming PORT when another process listens there; the system's error for
 *   anything else (an address this machine does not have, a privileged port)
 */
export async function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once("error", (e: NodeJS.ErrnoException) =>
      reject(e.code === "EADDRINUSE" ? new SettingsError(portInUseMessage(host, port)) : e),
    );
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}
