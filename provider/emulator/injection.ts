/**
 * Fault injection for reliability tests: rules that make matching calls slow, fail, lose their connection, come back
 * truncated or short; each rule's seeded PRNG makes a run reproducible. What each kind does is data (INJECTED).
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
/** Kinds aimed at one method, usually with `once()`; kept out of FAULT_KINDS so suites sampling it keep their model. */
export const TARGETED_FAULT_KINDS = ["http500After", "http502After", "http503After", "shortList"] as const;
/** Every kind a rule may take. */
export const ALL_FAULT_KINDS = [...FAULT_KINDS, ...TARGETED_FAULT_KINDS] as const;
export type FaultKind = (typeof ALL_FAULT_KINDS)[number];
/** Whether a failure happens before the call is carried out (nothing changes) or after (the answer is lost). */
export type FaultMoment = "before" | "after";
/** How the call fails: an HTTP status, a connection reset, a cut body, or (listZones only) a short list. */
export type FailureForm = "http500" | "http502" | "http503" | "reset" | "truncated" | "short";
type InjectedKind = Exclude<FaultKind, "latency">;

/** What each failing kind does: `when` it acts (instead of the call, or after it), what is sent, its `once()` form. */
export const INJECTED: {
  readonly [K in InjectedKind]: {
    readonly when: FaultMoment;
    readonly send: "status" | "reset" | "half" | "html" | "expired" | "short";
    readonly status?: 500 | 502 | 503;
    readonly once?: FailureForm;
  };
} = {
  http500: { when: "before", send: "status", status: 500, once: "http500" },
  http502: { when: "before", send: "status", status: 502, once: "http502" },
  http503: { when: "before", send: "status", status: 503, once: "http503" },
  resetBefore: { when: "before", send: "reset", once: "reset" },
  html: { when: "before", send: "html" },
  expiredAuth: { when: "before", send: "expired" },
  dropAfter: { when: "after", send: "reset", once: "reset" },
  truncated: { when: "after", send: "half", once: "truncated" },
  http500After: { when: "after", send: "status", status: 500, once: "http500" },
  http502After: { when: "after", send: "status", status: 502, once: "http502" },
  http503After: { when: "after", send: "status", status: 503, once: "http503" },
  shortList: { when: "after", send: "short", once: "short" },
};

/** One failure of one method, for `faults.once()` (docs/emulator.md, "One failure of one method"). */
export interface OnceSpec {
  readonly method: string;
  readonly when: FaultMoment;
  readonly as: FailureForm;
  readonly keep?: number;
}

/** A fault rule; what each setting does: docs/emulator.md, "Fault injection". */
export interface FaultRule {
  readonly kind: FaultKind;
  readonly method?: string;
  readonly rate?: number;
  readonly count?: number;
  readonly skip?: number;
  readonly seed?: number;
  readonly latencyMs?: number;
  readonly status?: 200 | 502;
  readonly keep?: number;
  readonly retryAfterS?: number;
}

/** What to do to one call: the added latency, and the failing kind (if any) with its rule's settings. */
export type Injection = { readonly latencyMs: number; readonly kind?: InjectedKind } & Pick<
  FaultRule,
  "status" | "keep" | "retryAfterS"
>;

const isCount = (v: number) => Number.isSafeInteger(v) && v >= 0;
/** Each optional setting's check and what the error says of it. */
const CHECKS: readonly [keyof FaultRule, (v: never) => boolean, string][] = [
  ["rate", (v: number) => v >= 0 && v <= 1, "must be between 0 and 1"],
  ["count", (v: number) => isCount(v) && v > 0, "must be a positive integer"],
  ["latencyMs", (v: number) => Number.isFinite(v) && v >= 0, "must be >= 0"],
  ["status", (v: number) => v === 200 || v === 502, "must be 200 or 502"],
  ["skip", isCount, "must be a non-negative integer"],
  ["keep", isCount, "must be a non-negative integer"],
  ["retryAfterS", isCount, "must be a non-negative integer (seconds)"],
];

function checkRule(rule: FaultRule): void {
  if (!ALL_FAULT_KINDS.includes(rule.kind))
    throw new TypeError(`faults.add: unknown kind '${rule.kind}' (kinds: ${ALL_FAULT_KINDS.join(", ")})`);
  for (const [key, ok, want] of CHECKS)
    if (rule[key] !== undefined && !ok(rule[key] as never)) throw new TypeError(`faults.add: ${key} ${want}`);
  // A short answer only means something for a list; other methods would silently ignore the rule.
  if (rule.kind === "shortList" && !(rule.method && /^[a-z]+\.listZones$/.test(rule.method)))
    throw new TypeError("faults.add: shortList needs method '<group>.listZones'");
}

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

function matches(rule: FaultRule, method: string | undefined): boolean {
  if (rule.method === undefined) return true;
  if (method === undefined) return false;
  return rule.method.endsWith(".*") ? method.startsWith(rule.method.slice(0, -1)) : method === rule.method;
}

type ActiveRule = {
  readonly id: number;
  readonly rule: FaultRule;
  remaining?: number;
  toSkip: number;
  random(): number;
};

const zeroCounts = () => Object.fromEntries(ALL_FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;

export class FaultInjector {
  private rules: ActiveRule[] = [];
  private nextId = 1;
  private counts = zeroCounts();

  /** Adds a rule; returns its id for remove(). Rules are tried in the order they were added. */
  add(rule: FaultRule): number {
    checkRule(rule);
    const id = this.nextId++;
    const random = prng(rule.seed ?? 1);
    this.rules.push({ id, rule: { ...rule }, remaining: rule.count, toSkip: rule.skip ?? 0, random });
    return id;
  }

  /** Makes the next call of one method fail once, before it runs or after (the answer lost); returns the rule id. */
  once(spec: OnceSpec): number {
    if (!spec || typeof spec.method !== "string" || !/^[a-z]+\.[A-Za-z]+$/.test(spec.method))
      throw new TypeError("faults.once: method must be a wire name such as 'pullzone.create'");
    if (spec.when !== "before" && spec.when !== "after")
      throw new TypeError("faults.once: when must be 'before' or 'after'");
    const rows = (Object.keys(INJECTED) as InjectedKind[]).filter((k) => INJECTED[k].when === spec.when);
    const kind = rows.find((k) => INJECTED[k].once === spec.as);
    if (!kind) {
      const forms = [...new Set(rows.map((k) => INJECTED[k].once).filter(Boolean))].join(", ");
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
    this.counts = zeroCounts();
  }

  /** The fate of one call to `method` (undefined: unparsed): latency rules add up; the first other rule to fire wins. */
  decide(method: string | undefined): Injection {
    let latencyMs = 0;
    let chosen: FaultRule | undefined;
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
      if (rule.kind === "latency") latencyMs += rule.latencyMs ?? 250;
      else chosen = rule;
    }
    if (!chosen) return { latencyMs };
    const { kind, status, keep, retryAfterS } = chosen;
    return { latencyMs, kind: kind as InjectedKind, status, keep, retryAfterS };
  }
}
