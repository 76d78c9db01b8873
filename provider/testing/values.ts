/**
 * Small value helpers of the engine: changed keys, a semaphore, reverse dependency order.
 */
import { isDeepStrictEqual } from "util";

/**
 * Top-level keys whose values differ, sorted. Values are JSON (they crossed a gRPC Struct or the state file),
 * so Node's strict deep equality is the structural comparison the engine makes.
 */
export function changedKeys(olds: Record<string, unknown>, news: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  return [...keys].filter((k) => !isDeepStrictEqual(olds[k], news[k])).sort();
}

/** A counting semaphore: at most `limit` holders at a time, first come first served. */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  /** Runs `f` once a slot is free. */
  async run<T>(f: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await f();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/**
 * Orders items so that each comes before everything it depends on (delete order): repeatedly takes the
 * last item in `items` order that nothing remaining depends on. A cycle falls back to reverse order.
 */
export function reverseDependencyOrder<T extends { urn: string; dependencies?: string[] }>(items: T[]): T[] {
  const remaining = [...items];
  const out: T[] = [];
  while (remaining.length > 0) {
    let pick = -1;
    for (let i = remaining.length - 1; i >= 0 && pick < 0; i--) {
      const urn = remaining[i].urn;
      if (!remaining.some((o, j) => j !== i && (o.dependencies ?? []).includes(urn))) pick = i;
    }
    if (pick < 0) pick = remaining.length - 1;
    out.push(remaining.splice(pick, 1)[0]);
  }
  return out;
}
