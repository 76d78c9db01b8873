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

/** The package's one semaphore (api/semaphore.ts): a freed slot passes straight to the next waiter. */
export { Semaphore } from "../api/semaphore";

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
