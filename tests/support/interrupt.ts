/**
 * Interrupting the real CLI as a user or a CI runner does. The CLI is started in its own process group and the
 * group gets the signal, as a terminal's Ctrl-C reaches its foreground job; the engine's plugins (the dynamic-provider
 * host among them) run in process groups of their own, so the first signal reaches only the CLI, and the second makes
 * the CLI close its plugins (docs/pulumi-engine.md). The CLI takes SIGTERM as it takes SIGINT
 * (pkg/backend/cancellation_scope.go): a CI cancellation (SIGINT, then SIGTERM some seconds later) is Ctrl-C twice.
 */
import type { ChildProcess } from "child_process";

export interface Interrupt {
  detached: true;
  onOutput(output: string, child: ChildProcess): void;
}

/**
 * SIGINT to the CLI's process group once `ready(output)` holds, and for `times: 2` the `second` signal once the CLI
 * says it is cancelling and `secondWhen()` holds (polled; at once by default).
 */
export function ctrlC(
  times: 1 | 2,
  ready: (output: string) => boolean,
  secondWhen: () => boolean = () => true,
  second: NodeJS.Signals = "SIGINT",
): Interrupt {
  let sent = 0;
  let waiting = false;
  const press = (child: ChildProcess, signal: NodeJS.Signals) => {
    sent++;
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // the CLI has ended already
    }
  };
  const ended = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;
  const pressWhenSecond = (child: ChildProcess) => {
    waiting = true;
    if (secondWhen()) return press(child, second);
    const poll = setInterval(() => {
      if (ended(child)) clearInterval(poll);
      else if (secondWhen()) {
        clearInterval(poll);
        press(child, second);
      }
    }, 2);
  };
  return {
    detached: true,
    onOutput(output: string, child: ChildProcess) {
      if (sent === 0 && ready(output)) press(child, "SIGINT");
      else if (sent === 1 && times === 2 && !waiting && output.includes("^C received; cancelling"))
        pressWhenSecond(child);
    },
  };
}

/** Output that shows `n` creates done (the CLI's progress lines). */
export const created = (n: number) => (output: string) => (output.match(/ created \(/g) ?? []).length >= n;
