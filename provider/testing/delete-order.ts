/** The order deletes run in, dependents first: a topological sort of state entries by their dependencies. */

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
