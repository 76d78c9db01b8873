/** Call and purge records and per-method counters; never the API key, an authString or a password. */
import { findMethod } from "../api/methods";
import type { PurgeRecord } from "./handlers/context";
import type { FaultKind } from "./injection";
import { defineData, type WireValue } from "../api/xmlrpc";

export interface CallRecord {
  /** The methodName as sent ("" when the body did not parse). */
  readonly method: string;
  readonly path: string;
  /** The call ran and answered without a fault (for dropAfter/truncated: ran, though the answer was lost). */
  readonly ok: boolean;
  readonly faultCode?: number;
  readonly faultString?: string;
  /** A create's §7 error code, or 1 from an update/delete. */
  readonly errorCode?: number;
  /** The injected fault kind, if one was applied (besides latency). */
  readonly fault?: FaultKind | "rateLimited";
  /** Parameters after apiUserId, authString, currentDate; passwords redacted ([] when the body did not parse). */
  readonly params: unknown[];
  /** Milliseconds from the request's arrival to the answer. */
  readonly ms: number;
  /** When it arrived, in epoch ms of the emulator's clock. */
  readonly at: number;
}

export interface MethodStats {
  calls: number;
  ok: number;
  faults: number;
}

export interface EmulatorStats {
  readonly total: number;
  readonly ok: number;
  readonly faults: number;
  /** By wire name; calls to names outside the API are counted under "(unknown)". */
  readonly byMethod: Readonly<Record<string, MethodStats>>;
  readonly injected: Readonly<Record<FaultKind, number>>;
  readonly purges: number;
}

/** A plain copy of a wire value, every struct `password` "[redacted]"; keys are own properties (`__proto__` inert). */
export function toRecordValue(value: WireValue): unknown {
  switch (value.t) {
    case "nil":
      return null;
    case "base64":
      return `<${value.v.length} bytes of base64>`;
    case "array":
      return value.v.map(toRecordValue);
    case "struct": {
      const out: Record<string, unknown> = {};
      for (const [key, member] of value.v)
        defineData(out, key, key === "password" ? "[redacted]" : toRecordValue(member));
      return out;
    }
    default:
      return value.v;
  }
}

/** Call records kept for inspection; older ones are dropped first (stats() keeps counting). */
const MAX_CALL_RECORDS = 100_000;

/** Keeps at most MAX_CALL_RECORDS, dropping the oldest tenth when full. */
function push<T>(list: T[], item: T): void {
  list.push(item);
  if (list.length > MAX_CALL_RECORDS) list.splice(0, Math.ceil(MAX_CALL_RECORDS / 10));
}

export class Recorder {
  /** Newest last; trimmed to MAX_CALL_RECORDS. */
  readonly calls: CallRecord[] = [];
  readonly purges: PurgeRecord[] = [];
  private byMethod = new Map<string, MethodStats>();

  record(call: CallRecord): void {
    push(this.calls, call);
    const key = findMethod(call.method) ? call.method : "(unknown)";
    let stats = this.byMethod.get(key);
    if (!stats) this.byMethod.set(key, (stats = { calls: 0, ok: 0, faults: 0 }));
    stats.calls++;
    if (call.ok) stats.ok++;
    else stats.faults++;
  }

  recordPurge(purge: PurgeRecord): void {
    push(this.purges, purge);
  }

  stats(injected: Record<FaultKind, number>): EmulatorStats {
    const byMethod: Record<string, MethodStats> = {};
    const sum = { total: 0, ok: 0, faults: 0 };
    for (const [key, value] of this.byMethod) {
      byMethod[key] = { ...value };
      sum.total += value.calls;
      sum.ok += value.ok;
      sum.faults += value.faults;
    }
    return { ...sum, byMethod, injected, purges: this.purges.length };
  }

  /** Empties records and counters in place (references to `calls`/`purges` stay valid). */
  reset(): void {
    this.calls.length = 0;
    this.purges.length = 0;
    this.byMethod.clear();
  }
}
