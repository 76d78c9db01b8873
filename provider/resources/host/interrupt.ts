/**
 * Ctrl-C while zones are being created. The host ignores the first Ctrl-C's Cancel; the second sends SIGINT, then
 * SIGKILL 5 s later (docs/pulumi-engine.md). While a create is in flight SIGINT and SIGTERM are held: nothing new
 * starts, each zone in flight is named with what the next `up` does, and the host ends once they settle (at most
 * {@link GRACE_MS}). With nothing in flight no handler is installed.
 *
 * Needed by: tests/engine/interrupt.test.ts (Ctrl-C twice during creates: each zone in flight named with what the
 * next `up` does). Goes when the SDK's dynamic-provider host honours the engine's Cancel (its `cancel` does nothing).
 */

import { printable } from "../../api/terminalText";
import { writeLine } from "./engineWatch";

/** How long a stopping host waits for the creates in flight to settle; the CLI kills it after 5 s. */
export const GRACE_MS = 2_000;
const SIGNALS = ["SIGINT", "SIGTERM"] as const;

interface Tracked {
  /** The zone, and what the next `pulumi up` does if it was made but not recorded. */
  readonly what: string;
}

let stopping: NodeJS.Signals | undefined;
const inFlight = new Set<Tracked>();
const wakers = new Set<() => void>();

/** Where this module's lines go instead of stderr, settling once they are sent (the provider plugin: plugin/serve.ts). */
let sendTo: ((line: string) => Promise<unknown>) | undefined;
const sending: Promise<unknown>[] = [];

/** Sends this module's lines to `to` from now on: a provider plugin's stderr is shown nowhere. */
export function sayThrough(to: (line: string) => Promise<unknown>): void {
  sendTo = to;
}

/** Whether the host was asked to stop: no new attempt may start. */
export function interrupted(): boolean {
  return stopping !== undefined;
}

/** Waits `ms`, or less when the host is asked to stop. */
export function pause(ms: number): Promise<void> {
  if (stopping) return Promise.resolve();
  return new Promise((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      wakers.delete(wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    wakers.add(wake);
  });
}

function hold(on: boolean): void {
  for (const s of SIGNALS) (on ? process.on : process.off).call(process, s, onSignal);
}

/** Marks a create in flight until `end` is called with what became of it (a line naming the zone). */
export function track(what: string): { end(outcome: string): void } {
  const entry: Tracked = { what };
  // SIGINT and SIGTERM are held while a create is in flight.
  if (inFlight.size === 0 && !stopping) hold(true);
  inFlight.add(entry);
  return {
    end(outcome: string) {
      if (!inFlight.delete(entry)) return;
      if (stopping) {
        say(outcome);
        // On the next turn: the answer of this create still goes out (recorded when only the host was signalled).
        if (inFlight.size === 0) setTimeout(exit, 0);
      } else if (inFlight.size === 0) hold(false);
    },
  };
}

function onSignal(signal: NodeJS.Signals): void {
  if (stopping) return exit(); // asked twice: end now
  stopping = signal;
  // Closed with nothing in flight: the end of a deployment.
  if (inFlight.size === 0) return exit();
  for (const wake of [...wakers]) wake();
  say(`${signal}: stopping; no further attempt starts. Zones being created when Pulumi was interrupted:`);
  for (const e of inFlight) say(`  ${e.what}`);
  setTimeout(exit, GRACE_MS);
}

/** Written whatever CDN_LOG says: it names zones that may exist without being in the state. */
function say(line: string): void {
  if (sendTo) sending.push(sendTo(printable(line)));
  else writeLine(`[cdn] ${printable(line)}`);
}

function exit(): void {
  const end = () => process.exit(stopping === "SIGTERM" ? 143 : 130);
  if (sending.length) void Promise.all(sending).then(end, end);
  else end();
}
