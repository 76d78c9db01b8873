/**
 * Fault injection for reliability tests: rules that make matching calls slow, fail at the
 * HTTP level or lose their connection before or after processing, come back truncated, or
 * (listZones) come back with rows missing.
 * A rule with a `rate` draws from its own seeded PRNG, so a run is reproducible from the
 * seed and the order of calls. faults.ts renders what a rule decides.
 */

/** The general kinds, which apply to any call; the reliability suites and the soak sample these at random. */
export const FAULT_KINDS = [
  "latency",
  "http500",
  "http502",
  "http503",
  "resetBefore",
  "dropAfter",
  "truncated",
  "html",
  "expiredAuth",
] as const;
/**
 * Kinds meant to be aimed at one method, usually with `once()`: an HTTP error after processing,
 * and a short listZones answer. Kept out of FAULT_KINDS so suites that sample every kind keep
 * their fault model.
 */
export const TARGETED_FAULT_KINDS = ["http500After", "http502After", "http503After", "shortList"] as const;
/** Every kind a rule may take. */
export const ALL_FAULT_KINDS = [...FAULT_KINDS, ...TARGETED_FAULT_KINDS] as const;
export type FaultKind = (typeof ALL_FAULT_KINDS)[number];
/** A kind that fails the call (every kind but `latency`, which only delays it): faults.ts says when each acts. */
export type InjectedKind = Exclude<FaultKind, "latency">;

/** Whether a failure happens before the call is carried out (nothing changes) or after (the change is made, the answer lost). */
export type FaultMoment = "before" | "after";
/** How the call fails: an HTTP status, a connection reset, a cut body, or (listZones only) a short list. */
export type FailureForm = "http500" | "http502" | "http503" | "reset" | "truncated" | "short";

/** One failure of one method, for `faults.once()`. */
export interface OnceSpec {
  /** The wire name of the method (`pullzone.create`). */
  readonly method: string;
  readonly when: FaultMoment;
  readonly as: FailureForm;
  /** For `short`: how many rows of the real list to keep, from the start (default 0: an empty list). */
  readonly keep?: number;
}

/** The kind each (moment, form) pair stands for; a missing pair is not a failure that can happen. */
const ONCE_KINDS: Record<FaultMoment, Partial<Record<FailureForm, InjectedKind>>> = {
  before: { http500: "http500", http502: "http502", http503: "http503", reset: "resetBefore" },
  after: {
    http500: "http500After",
    http502: "http502After",
    http503: "http503After",
    reset: "dropAfter",
    truncated: "truncated",
    short: "shortList",
  },
};

export interface FaultRule {
  readonly kind: FaultKind;
  /** A wire name (`cache.purge`) or a group (`cache.*`); omitted: every call. */
  readonly method?: string;
  /** Probability (0..1) that a matching call gets the fault; omitted: always. */
  readonly rate?: number;
  /** Apply to the next N matching calls (that the rate lets through), then retire. */
  readonly count?: number;
  /** Let the first N matching calls through untouched, then apply (e.g. a deployment's first listZones, its snapshot). */
  readonly skip?: number;
  /** Seed of this rule's PRNG (default 1). */
  readonly seed?: number;
  /** For `latency`: the delay in ms (default 250). */
  readonly latencyMs?: number;
  /** For `html`: the HTTP status of the page, 200 or 502 (default 502). */
  readonly status?: 200 | 502;
  /** For `shortList`: rows of the real answer kept, from the start (default 0: an empty list). */
  readonly keep?: number;
  /**
   * For `http503` and `http503After`: the `Retry-After` seconds sent (default 1, as proxies send). 0 keeps the header
   * and the path that honours it, without the wait: suites that inject many 503s spend their time on the story.
   */
  readonly retryAfterS?: number;
}

/** What to do to one call. `kind` is the fault (if any) besides latency. */
export interface Injection {
  readonly latencyMs: number;
  readonly kind?: InjectedKind;
  readonly status?: number;
  /** For `shortList`: rows kept. */
  readonly keep?: number;
  /** For the 503 kinds: the `Retry-After` seconds the rule asked for (faults.ts sends 1 without). */
  readonly retryAfterS?: number;
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
  toSkip: number;
  readonly random: () => number;
}

function checkRule(rule: FaultRule): void {
  if (!ALL_FAULT_KINDS.includes(rule.kind))
    throw new TypeError(`faults.add: unknown kind '${rule.kind}' (kinds: ${ALL_FAULT_KINDS.join(", ")})`);
  if (rule.rate !== undefined && !(rule.rate >= 0 && rule.rate <= 1))
    throw new TypeError("faults.add: rate must be between 0 and 1");
  if (rule.count !== undefined && !(Number.isSafeInteger(rule.count) && rule.count > 0))
    throw new TypeError("faults.add: count must be a positive integer");
  if (rule.latencyMs !== undefined && !(Number.isFinite(rule.latencyMs) && rule.latencyMs >= 0))
    throw new TypeError("faults.add: latencyMs must be >= 0");
  if (rule.status !== undefined && rule.status !== 200 && rule.status !== 502)
    throw new TypeError("faults.add: status must be 200 or 502");
  if (rule.skip !== undefined && !(Number.isSafeInteger(rule.skip) && rule.skip >= 0))
    throw new TypeError("faults.add: skip must be a non-negative integer");
  if (rule.keep !== undefined && !(Number.isSafeInteger(rule.keep) && rule.keep >= 0))
    throw new TypeError("faults.add: keep must be a non-negative integer");
  if (rule.retryAfterS !== undefined && !(Number.isSafeInteger(rule.retryAfterS) && rule.retryAfterS >= 0))
    throw new TypeError("faults.add: retryAfterS must be a non-negative integer (seconds)");
  // A short answer only means something for a list; other methods would silently ignore the rule.
  if (rule.kind === "shortList" && !(rule.method && /^[a-z]+\.listZones$/.test(rule.method)))
    throw new TypeError("faults.add: shortList needs method '<group>.listZones'");
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
    return Object.fromEntries(ALL_FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
  }

  /** Adds a rule; returns its id for remove(). Rules are tried in the order they were added. */
  add(rule: FaultRule): number {
    checkRule(rule);
    const id = this.nextId++;
    this.rules.push({
      id,
      rule: { ...rule },
      remaining: rule.count,
      toSkip: rule.skip ?? 0,
      random: prng(rule.seed ?? 1),
    });
    return id;
  }

  /**
   * Makes the next call of one method fail once, before it is carried out (nothing changes) or
   * after (the change is made and the answer is lost): `once({ method: "pullzone.create",
   * when: "after", as: "http503" })`. Returns the rule id; the rule retires after one call.
   */
  once(spec: OnceSpec): number {
    if (!spec || typeof spec.method !== "string" || !/^[a-z]+\.[A-Za-z]+$/.test(spec.method))
      throw new TypeError("faults.once: method must be a wire name such as 'pullzone.create'");
    if (spec.when !== "before" && spec.when !== "after")
      throw new TypeError("faults.once: when must be 'before' or 'after'");
    const kind = ONCE_KINDS[spec.when][spec.as];
    if (!kind) {
      const forms = Object.keys(ONCE_KINDS[spec.when]).join(", ");
      throw new TypeError(
        `faults.once: '${String(spec.as)}' cannot happen ${spec.when} processing (${spec.when}: ${forms})`,
      );
    }
    if (spec.keep !== undefined && kind !== "shortList")
      throw new TypeError("faults.once: keep applies only to as: 'short'");
    return this.add({ kind, method: spec.method, count: 1, keep: spec.keep });
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
      if (active.toSkip > 0) {
        active.toSkip--;
        continue;
      }
      if (rule.rate !== undefined && active.random() >= rule.rate) continue;
      if (active.remaining !== undefined && --active.remaining <= 0) this.remove(active.id);
      this.counts[rule.kind]++;
      if (rule.kind === "latency") latencyMs += rule.latencyMs ?? DEFAULT_INJECTED_LATENCY_MS;
      else chosen = active;
    }
    if (!chosen) return latencyMs ? { latencyMs } : NONE;
    const kind = chosen.rule.kind as InjectedKind;
    if (kind === "shortList") return { latencyMs, kind, keep: chosen.rule.keep ?? 0 };
    if (kind === "http503" || kind === "http503After") return { latencyMs, kind, retryAfterS: chosen.rule.retryAfterS };
    return { latencyMs, kind, status: kind === "html" ? (chosen.rule.status ?? 502) : undefined };
  }
}
