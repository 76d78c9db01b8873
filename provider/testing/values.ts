/**
 * Small value helpers of the engine: deep equality, changed keys, a semaphore, reverse dependency order.
 */

/** Structural equality of JSON values (key order ignored). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((e, i) => deepEqual(e, b[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
  for (const k of keys) if (!deepEqual(ao[k], bo[k])) return false;
  return true;
}

/** Top-level keys whose values differ, sorted. */
export function changedKeys(olds: Record<string, unknown>, news: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  return [...keys].filter((k) => !deepEqual(olds[k], news[k])).sort();
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
