/**
 * Fault injection for reliability tests: rules that make matching calls slow, fail at the
 * HTTP level, lose their connection before or after processing, or come back truncated.
 * A rule with a `rate` draws from its own seeded PRNG, so a run is reproducible from the
 * seed and the order of calls. faults.ts renders what a rule decides.
 */

export const FAULT_KINDS = ["latency", "http500", "http502", "http503", "resetBefore", "dropAfter", "truncated", "html", "expiredAuth"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRule {
  readonly kind: FaultKind;
  /** A wire name (`cache.purge`) or a group (`cache.*`); omitted: every call. */
  readonly method?: string;
  /** Probability (0..1) that a matching call gets the fault; omitted: always. */
  readonly rate?: number;
  /** Apply to the next N matching calls (that the rate lets through), then retire. */
  readonly count?: number;
  /** Seed of this rule's PRNG (default 1). */
  readonly seed?: number;
  /** For `latency`: the delay in ms (default 250). */
  readonly latencyMs?: number;
  /** For `html`: the HTTP status of the page, 200 or 502 (default 502). */
  readonly status?: 200 | 502;
}

/** What to do to one call. `kind` is the fault (if any) besides latency. */
export interface Injection {
  readonly latencyMs: number;
  readonly kind?: Exclude<FaultKind, "latency">;
  readonly status?: number;
}

export const DEFAULT_INJECTED_LATENCY_MS = 250;
const NONE: Injection = { latencyMs: 0 };

/** mulberry32: small, fast, and good enough to spread faults. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface ActiveRule {
  readonly id: number;
  readonly rule: FaultRule;
  remaining?: number;
  readonly random: () => number;
}

function checkRule(rule: FaultRule): void {
  if (!FAULT_KINDS.includes(rule.kind)) throw new TypeError(`faults.add: unknown kind '${rule.kind}' (kinds: ${FAULT_KINDS.join(", ")})`);
  if (rule.rate !== undefined && !(rule.rate >= 0 && rule.rate <= 1)) throw new TypeError("faults.add: rate must be between 0 and 1");
  if (rule.count !== undefined && !(Number.isSafeInteger(rule.count) && rule.count > 0)) throw new TypeError("faults.add: count must be a positive integer");
  if (rule.latencyMs !== undefined && !(Number.isFinite(rule.latencyMs) && rule.latencyMs >= 0)) throw new TypeError("faults.add: latencyMs must be >= 0");
  if (rule.status !== undefined && rule.status !== 200 && rule.status !== 502) throw new TypeError("faults.add: status must be 200 or 502");
}

function matches(rule: FaultRule, method: string | undefined): boolean {
  if (rule.method === undefined) return true;
  if (method === undefined) return false;
  return rule.method.endsWith(".*") ? method.startsWith(rule.method.slice(0, -1)) : method === rule.method;
}

export class FaultInjector {
  private rules: ActiveRule[] = [];
  private nextId = 1;
  private counts = FaultInjector.zeroCounts();

  private static zeroCounts(): Record<FaultKind, number> {
    return Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
  }

  /** Adds a rule; returns its id for remove(). Rules are tried in the order they were added. */
  add(rule: FaultRule): number {
    checkRule(rule);
    const id = this.nextId++;
    this.rules.push({ id, rule: { ...rule }, remaining: rule.count, random: prng(rule.seed ?? 1) });
    return id;
  }

  remove(id: number): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((r) => r.id !== id);
    return this.rules.length !== before;
  }

  /** Removes every rule (the injected() counts stay). */
  clear(): void {
    this.rules = [];
  }

  /** The rules still active, with how many applications each has left. */
  active(): (FaultRule & { id: number; remaining?: number })[] {
    return this.rules.map((r) => ({ ...r.rule, id: r.id, remaining: r.remaining }));
  }

  /** How many calls got each kind of fault since start (or resetCounts()). */
  injected(): Record<FaultKind, number> {
    return { ...this.counts };
  }

  resetCounts(): void {
    this.counts = FaultInjector.zeroCounts();
  }

  /**
   * Decides the fate of one call to `method` (undefined when the body did not parse):
   * latency rules add up; the first other rule that fires gives the fault.
   */
  decide(method: string | undefined): Injection {
    if (this.rules.length === 0) return NONE;
    let latencyMs = 0;
    let chosen: ActiveRule | undefined;
    for (const active of [...this.rules]) {
      const { rule } = active;
      if ((rule.kind !== "latency" && chosen) || !matches(rule, method)) continue;
      if (rule.rate !== undefined && active.random() >= rule.rate) continue;
      if (active.remaining !== undefined && --active.remaining <= 0) this.remove(active.id);
      this.counts[rule.kind]++;
      if (rule.kind === "latency") latencyMs += rule.latencyMs ?? DEFAULT_INJECTED_LATENCY_MS;
      else chosen = active;
    }
    if (!chosen) return latencyMs ? { latencyMs } : NONE;
    const kind = chosen.rule.kind as Exclude<FaultKind, "latency">;
    return { latencyMs, kind, status: kind === "html" ? (chosen.rule.status ?? 502) : undefined };
  }
}
