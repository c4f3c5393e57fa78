/**
 * The process launcher's helper process (launcher.ts): starts the processes it is asked to over
 * the IPC channel and reports back. It exists because starting a process costs its parent time
 * proportional to the parent's memory (fork copies the page tables): about 25 ms in the server,
 * which holds the embedded ClickHouse engine, against about 6 ms here. Plain CommonJS so it runs
 * with no loader, whatever started the server (tsx, vitest, a build). Messages: protocol.ts.
 *
 * - exec    {id, file, args, env, cwd, input, maxBuffer} → done {id, stdout, stderr, exitCode, message}
 * - spawn   {id, file, args, env, cwd} → started {id, pid} | error {id, message}, output {id, chunk}…,
 *           exit {id, code, signal}, closed {id}. The process gets its own process group.
 * - release {id}: stop reading a spawned process's pipes; nothing more is sent for it.
 * It ignores SIGINT (the server finishes its shutdown, which may still need git) and exits when
 * the channel closes (its parent has exited or let it go), killing the process groups of the
 * scripts still running, which nobody would end or read any more.
 */
"use strict";
const { execFile, spawn } = require("node:child_process");

/** Output bytes of one spawned process handed to the IPC channel and not yet sent. */
const MAX_UNSENT_BYTES = 1024 * 1024;

/** Spawned processes whose pipes are still read, by request id. */
const spawned = new Map();

process.on("SIGINT", () => {});
// The parent is gone (exited, or killed): nobody will read what its scripts print or end them.
process.on("disconnect", () => {
  for (const child of spawned.values()) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // ESRCH: the group is already gone.
    }
  }
  process.exit(0);
});

const send = (reply) => {
  if (process.connected) process.send(reply);
};

function exec(request) {
  const reply = (stdout, stderr, exitCode, message) =>
    send({ kind: "done", id: request.id, stdout, stderr, exitCode, message });
  let child;
  try {
    child = execFile(
      request.file,
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
  // The command may exit before reading all of stdin (e.g. on a bad argument); the exit code reports it.
  child.stdin.on("error", () => {});
  child.stdin.end(request.input === undefined ? undefined : Buffer.from(request.input));
}

function start(request) {
  const id = request.id;
  let child;
  try {
    child = spawn(request.file, request.args, {
      cwd: request.cwd,
      env: request.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    send({ kind: "error", id, message: error instanceof Error ? error.message : String(error) });
    return;
  }
  spawned.set(id, child);
  const live = () => spawned.get(id) === child;
  child.on("spawn", () => live() && send({ kind: "started", id, pid: child.pid }));
  child.on("error", (error) => live() && send({ kind: "error", id, message: error.message }));
  // Flow control: the pipes are paused while more than MAX_UNSENT_BYTES of output wait to be
  // sent, so a script printing gigabytes is slowed to the pace of the parent instead of piling up
  // here (the pipe's own backpressure, as when the parent read it).
  let unsent = 0;
  const forward = (chunk) => {
    if (!live() || !process.connected) return;
    unsent += chunk.length;
    if (unsent > MAX_UNSENT_BYTES) {
      child.stdout.pause();
      child.stderr.pause();
    }
    process.send({ kind: "output", id, chunk }, () => {
      unsent -= chunk.length;
      if (unsent <= MAX_UNSENT_BYTES && live()) {
        child.stdout.resume();
        child.stderr.resume();
      }
    });
  };
  child.stdout.on("data", forward);
  child.stderr.on("data", forward);
  child.on("exit", (code, signal) => live() && send({ kind: "exit", id, code, signal }));
  child.on("close", () => {
    if (!live()) return;
    spawned.delete(id);
    send({ kind: "closed", id });
  });
}

function release(request) {
  const child = spawned.get(request.id);
  if (child === undefined) return;
  spawned.delete(request.id);
  child.stdout.destroy();
  child.stderr.destroy();
}

process.on("message", (request) => {
  if (request.kind === "exec") exec(request);
  else if (request.kind === "spawn") start(request);
  else if (request.kind === "release") release(request);
});
