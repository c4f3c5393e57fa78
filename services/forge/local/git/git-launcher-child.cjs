/**
 * The git launcher's helper process (git-launcher.ts): starts each `git` command it is sent over
 * the IPC channel and sends back what it printed. It exists because starting a process costs its
 * parent time proportional to the parent's memory (fork copies the page tables): about 25 ms in
 * the server, which holds the embedded ClickHouse engine, against about 6 ms here. Plain CommonJS
 * so it runs with no loader, whatever started the server (tsx, vitest, a build).
 *
 * Request:  { id, args, env, cwd, input, maxBuffer }   (input: Uint8Array or undefined)
 * Response: { id, stdout, stderr, exitCode, message }  (exitCode null: git could not start, was
 *           killed, or printed more than maxBuffer; message says which)
 * It ignores SIGINT (the server finishes its shutdown, which may still need git) and exits when
 * the channel closes: its parent has exited or let it go.
 */
"use strict";
const { execFile } = require("node:child_process");

process.on("SIGINT", () => {});
process.on("disconnect", () => process.exit(0));

process.on("message", (request) => {
  const reply = (stdout, stderr, exitCode, message) => {
    if (process.connected) process.send({ id: request.id, stdout, stderr, exitCode, message });
  };
  let child;
  try {
    child = execFile(
      "git",
      request.args,
      { encoding: "buffer", maxBuffer: request.maxBuffer, env: request.env, cwd: request.cwd, windowsHide: true },
      (error, stdout, stderr) => {
        const exitCode = error === null ? 0 : typeof error.code === "number" ? error.code : null;
        reply(stdout, stderr, exitCode, error === null ? null : error.message);
      },
    );
  } catch (error) {
    // Arguments Node refuses before starting anything (a NUL byte in an argument).
    reply(Buffer.alloc(0), Buffer.alloc(0), null, error instanceof Error ? error.message : String(error));
    return;
  }
  // git may exit before reading all of stdin (e.g. on a bad argument); the exit code reports it.
  child.stdin.on("error", () => {});
  child.stdin.end(request.input === undefined ? undefined : Buffer.from(request.input));
});
