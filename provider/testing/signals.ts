/**
 * The driver's operations when the process running them is told to stop (issue 21). The runner and the
 * dynamic-provider host run in process groups of their own, as the CLI runs its plugins, so a terminal's
 * Ctrl-C reaches this process alone, which then stops them in order:
 * - SIGINT, SIGTERM or SIGHUP while an operation runs: each operation is interrupted (no new step starts,
 *   the creates in flight get the provider's grace and stay recorded as pending operations, the state is
 *   written, both children stop); then, unless the program listens for that signal itself, the process ends
 *   by it as it would have without the driver. A second signal stops the children at once.
 * - the process exits (process.exit, an uncaught error) while an operation runs: the children are told to
 *   stop (SIGTERM); the runner, left without its parent, writes the state and stops the host itself.
 * Listeners are installed only while an operation runs.
 */

/** What the guard needs of a running operation. */
export interface Interruptible {
  /** Starts an orderly stop (the operation then ends by itself, soon). */
  interrupt(signal: NodeJS.Signals): void;
  /** Tells every child to stop now; synchronous (it runs at exit too). */
  stopNow(): void;
}

const SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
const active = new Set<Interruptible>();
/** The signal being handled: the process ends by it once the operations have stopped. */
let received: NodeJS.Signals | undefined;

function onSignal(signal: NodeJS.Signals): void {
  if (received) {
    // Asked again: no more waiting.
    for (const op of active) op.stopNow();
    uninstall();
    endBy(signal);
    return;
  }
  received = signal;
  for (const op of active) op.interrupt(signal);
}

function onExit(): void {
  for (const op of active) op.stopNow();
}

function install(): void {
  for (const s of SIGNALS) process.on(s, onSignal);
  process.on("exit", onExit);
}

function uninstall(): void {
  for (const s of SIGNALS) process.off(s, onSignal);
  process.off("exit", onExit);
}

/** Ends the process by `signal` as it would have ended without the driver, unless the program handles it. */
function endBy(signal: NodeJS.Signals): void {
  received = undefined;
  if (process.listenerCount(signal) > 0) return;
  // After the operation's result has reached its caller.
  setImmediate(() => {
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  });
}

/** Registers a running operation; the returned function releases it when the operation has ended. */
export function guard(op: Interruptible): () => void {
  if (active.size === 0) install();
  active.add(op);
  return () => {
    if (!active.delete(op) || active.size > 0) return;
    uninstall();
    if (received) endBy(received);
  };
}

/** The signal an operation was interrupted by, for its error: `interrupted by SIGINT`. */
export function interruptedMessage(op: string, signal: NodeJS.Signals): string {
  return (
    `${op} interrupted by ${signal}: no new step started; creates in flight were given the provider's grace and ` +
    `any still unanswered are recorded as pending operations in the state file (the next up takes back a zone ` +
    `holding its resource's own auto-name; refresh with clearPendingCreates clears them)`
  );
}
