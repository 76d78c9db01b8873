/**
 * No host outlives its deployment: after `kill -9` of `pulumi` the SDK's host stays alive with the key in memory and
 * loops on EPIPE (docs/pulumi-engine.md, docs/reliability.md). In the SDK's host only, it exits at once when the
 * engine is gone: a failed write to stdout/stderr, end of file on stdin (the engine holds that pipe open: plugin.go,
 * `cmd.StdinPipe()`), or a new parent. Nothing it does then could be recorded.
 *
 * Needed by: tests/engine/orphan-host.test.ts (`kill -9` of `pulumi` mid-`up`: no host left) and
 * tests/reliability/engine-watch.host.test.ts. Goes when the SDK's dynamic-provider host ends itself on a closed
 * stdin or a lost engine (sdk/nodejs/cmd/dynamic-provider has no such watch at v3.248.0).
 */
import * as fs from "fs";
import { hostSdkRoot } from "./sdk";

/** How often the parent is looked at, in ms (the timer does not keep the host alive). */
export const PARENT_POLL_MS = 1_000;

let installed = false;
let gone: string | undefined;

/** Starts watching for the engine's end, once, when this process is the SDK's host. Cheap to call on every operation. */
export function watchEngine(): void {
  if (installed || hostSdkRoot() === undefined) return;
  installEngineWatch();
}

/** Installs the watch whatever runs this process (a test's child may stand in); `exit` may be observed instead. */
export function installEngineWatch(exit: (why: string) => void = defaultExit): void {
  if (installed) return;
  installed = true;
  const end = (why: string) => {
    if (gone !== undefined) return;
    gone = why;
    exit(why);
  };
  for (const name of ["stdout", "stderr"] as const)
    process[name].on("error", (e: NodeJS.ErrnoException) => end(`${name} failed (${e.code ?? e.message})`));
  if (stdinIsPipe()) {
    const stdin = process.stdin;
    stdin.on("end", () => end("stdin reached its end"));
    stdin.on("error", () => end("stdin failed"));
    stdin.on("data", () => undefined); // the engine writes nothing; whatever comes is dropped
    stdin.resume();
    (stdin as { unref?: () => void }).unref?.();
  }
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) end(`its parent ${parent} ended`);
  }, PARENT_POLL_MS);
  timer.unref();
}

/** Whether stdin is a pipe or a socket: what the engine gives its plugins (a terminal or /dev/null is not watched). */
function stdinIsPipe(): boolean {
  try {
    const st = fs.fstatSync(0);
    return st.isFIFO() || st.isSocket();
  } catch {
    return false;
  }
}

function defaultExit(): void {
  // Nothing can be written any more (the engine read both pipes), and nothing done now could be recorded.
  process.exit(1);
}

/** Writes one line to stderr unless the engine is gone; a failure goes to the watch, never starting the EPIPE loop. */
export function writeLine(line: string): void {
  if (gone !== undefined) return;
  try {
    process.stderr.write(`${line}\n`);
  } catch {
    // A synchronous failure of the pipe: the 'error' listener (when installed) ends the host.
  }
}
