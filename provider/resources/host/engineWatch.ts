/**
 * No host outlives its deployment. After `kill -9` of `pulumi`, the SDK's dynamic-provider host it started stays
 * alive with the API key in memory, and the next line written to its stderr (a pipe nobody reads any more) fails
 * with EPIPE, which the SDK's uncaught-exception handler logs to the same pipe: a loop that burns a core and
 * gigabytes (docs/pulumi-engine.md). Nothing in the SDK ends that host, so the provider does, once it runs in one:
 * - a failed write to stdout or stderr (EPIPE, or any error of those pipes) is handled here, never thrown, and
 *   means the engine, the only reader of both, is gone;
 * - the engine starts every plugin with a pipe on its stdin and never writes to it or closes it while it runs
 *   (pulumi/pulumi sdk/go/common/resource/plugin/plugin.go, `cmd.StdinPipe()`): end of file there means the
 *   engine process has ended. The SDK's own launcher (`pulumi-resource-pulumi-nodejs`, a shell script that runs
 *   node as its child) passes that stdin on, so this holds with a user's real Pulumi distribution too;
 * - the parent changes (a launcher that `exec`s node: the host is re-parented when the engine dies).
 * Then the host exits at once: whatever it was doing can no longer be recorded by the engine, and what the engine
 * recorded is in its checkpoint already. Outside the SDK's host (tests, the testing kit's in-process host) nothing
 * is installed.
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

/**
 * Installs the watch in this process whatever runs it (the host, or a test's child process standing in for it).
 * `exit` ends the process; a test may observe it instead.
 */
export function installEngineWatch(exit: (why: string) => void = defaultExit): void {
  if (installed) return;
  installed = true;
  const end = (why: string) => {
    if (gone !== undefined) return;
    gone = why;
    exit(why);
  };
  for (const [name, stream] of [
    ["stdout", process.stdout],
    ["stderr", process.stderr],
  ] as const) {
    stream.on("error", (e: NodeJS.ErrnoException) => end(`${name} failed (${e.code ?? e.message})`));
  }
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

/**
 * Writes one line to stderr, unless the engine is gone. A failed write is handled by the watch (never thrown at
 * the caller), so a provider line can never start the SDK's EPIPE loop.
 */
export function writeLine(line: string): void {
  if (gone !== undefined) return;
  try {
    process.stderr.write(`${line}\n`);
  } catch {
    // A synchronous failure of the pipe: the 'error' listener (when installed) ends the host.
  }
}
