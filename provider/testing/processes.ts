/**
 * The child processes of an operation: the runner and, when anything calls the provider, the SDK's
 * dynamic-provider host. All are always stopped (and their pipes closed) before an operation returns. Both run
 * in process groups of their own, as the CLI runs its plugins (`RegisterProcessGroup`, pkg/resource/plugin): a
 * terminal's Ctrl-C reaches the driver's process alone, which stops them in order (signals.ts).
 */
import { ChildProcess, fork, spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import type { Readable } from "stream";

/** A started child with a promise of its end (all pipes closed). */
export interface Child {
  proc: ChildProcess;
  closed: Promise<void>;
}

const STOP_GRACE_MS = 3000;

function track(proc: ChildProcess): Child {
  const closed = new Promise<void>((resolve) => {
    proc.once("close", () => resolve());
    proc.once("error", () => resolve());
  });
  return { proc, closed };
}

/** Calls `onLine` for each line of a stream (the last one even without a newline). */
export function onLines(stream: Readable | null, onLine: (line: string) => void): void {
  if (!stream) return;
  let buf = "";
  stream.setEncoding("utf8");
  stream.on("data", (d: string) => {
    buf += d;
    let i: number;
    while ((i = buf.indexOf("\n")) >= 0) {
      onLine(buf.slice(0, i).replace(/\r$/, ""));
      buf = buf.slice(i + 1);
    }
  });
  stream.on("end", () => {
    if (buf) onLine(buf);
    buf = "";
  });
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/** Sends a signal to a child still running; never throws. */
export function signalChild(c: Child, signal: NodeJS.Signals): void {
  const { proc } = c;
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  try {
    proc.kill(signal);
  } catch {
    // gone meanwhile
  }
}

/** Stops a child: SIGTERM, then SIGKILL after a grace period; resolves once it is gone. */
export async function stopChild(c: Child): Promise<void> {
  const { proc } = c;
  if (proc.exitCode === null && proc.signalCode === null) {
    proc.kill("SIGTERM");
    if ((await withTimeout(c.closed, STOP_GRACE_MS)) === "timeout") proc.kill("SIGKILL");
  }
  if ((await withTimeout(c.closed, STOP_GRACE_MS)) === "timeout") {
    proc.stdout?.destroy();
    proc.stderr?.destroy();
  }
}

/** Waits for a child's end for at most `ms`. */
export async function waitForExit(c: Child, ms: number): Promise<boolean> {
  return (await withTimeout(c.closed, ms)) !== "timeout";
}

/** Path of the SDK's dynamic-provider host script as seen from the project. */
export function hostScript(projectDir: string): string {
  return require.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js", { paths: [projectDir] });
}

/**
 * Starts `node <host> 127.0.0.1:0` in the project directory. `port` resolves with the first stdout line;
 * later lines go to `onLine`.
 */
export function startHost(
  projectDir: string,
  env: NodeJS.ProcessEnv,
  onLine: (stream: "stdout" | "stderr", line: string) => void,
): Child & { port: Promise<number> } {
  const proc = spawn(process.execPath, [hostScript(projectDir), "127.0.0.1:0"], {
    cwd: projectDir,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const child = track(proc);
  const stderrTail: string[] = [];
  let gotPort = false;
  const port = new Promise<number>((resolve, reject) => {
    onLines(proc.stdout, (line) => {
      if (gotPort) return onLine("stdout", line);
      gotPort = true;
      const n = Number(line.trim());
      if (Number.isInteger(n) && n > 0) resolve(n);
      else reject(new Error(`dynamic-provider host printed '${line}' instead of its port`));
    });
    child.closed.then(() => {
      if (!gotPort)
        reject(new Error(`dynamic-provider host exited before printing its port: ${stderrTail.join("\n")}`));
    });
  });
  port.catch(() => undefined); // handled by the caller; avoid an unhandled rejection if it never awaits
  onLines(proc.stderr, (line) => {
    stderrTail.push(line);
    if (stderrTail.length > 20) stderrTail.shift();
    onLine("stderr", line);
  });
  return { ...child, port };
}

/** Path of the compiled runner: beside this file when compiled, else in the package's `dist/testing`. */
export function runnerScript(): string {
  const candidates = [path.join(__dirname, "runner.js"), path.join(__dirname, "..", "dist", "testing", "runner.js")];
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) throw new Error(`driver runner not found (looked for ${candidates.join(", ")}); build the package first`);
  return found;
}

/** Forks the runner with an IPC channel, plain Node (no inherited exec arguments such as jest's). */
export function startRunner(
  projectDir: string,
  env: NodeJS.ProcessEnv,
  onLine: (stream: "stdout" | "stderr", line: string) => void,
): Child {
  const proc = fork(runnerScript(), [], {
    cwd: projectDir,
    env,
    execArgv: [],
    stdio: ["ignore", "pipe", "pipe", "ipc"],
    serialization: "json",
    detached: true,
  });
  onLines(proc.stdout, (line) => onLine("stdout", line));
  onLines(proc.stderr, (line) => onLine("stderr", line));
  return track(proc);
}
