/**
 * A clock and timers that move only when the test says (`advance`): given to a client (`now`, `timers`), its
 * timeouts and notices fire at the test's word, so no test of a timeout races the machine's load (issue 45).
 */
import type { CdnClientOptions } from "../../provider/api";

type Timer = { at: number; fire: () => void };

export class ManualClock {
  private time = Date.now();
  private readonly armed = new Map<number, Timer>();
  private ids = 0;

  /** The options that make a client wait by this clock. */
  readonly client: Pick<CdnClientOptions, "now" | "timers"> = {
    now: () => this.time,
    timers: {
      setTimeout: (fire, ms) => {
        this.armed.set(++this.ids, { at: this.time + ms, fire });
        return this.ids;
      },
      clearTimeout: (id) => void this.armed.delete(id as number),
    },
  };

  /** The delays of the timers armed and not yet fired or cleared, from now, soonest first. */
  get pending(): number[] {
    return [...this.armed.values()].map((t) => t.at - this.time).sort((a, b) => a - b);
  }

  /** Moves the clock `ms` on, firing each timer due on the way at its own time, in their order. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.armed].filter(([, t]) => t.at <= end).sort(([, a], [, b]) => a.at - b.at)[0];
      if (!due) break;
      this.armed.delete(due[0]);
      this.time = due[1].at;
      due[1].fire();
    }
    this.time = end;
  }
}
