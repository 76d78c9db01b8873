/**
 * A create whose answer is lost is never repeated blindly: the zone is looked up by name and taken over only when
 * ours. Rules and reasons: docs/resources.md ("What each step does", create), docs/reliability.md ("Faults").
 */
import { CdnError, CdnNameInUseError, CdnProtocolError, CdnTransportError, withMessage } from "../../api/errors";
import { CREATE_ERROR_CODES } from "../../api/wire";
import { afterBudget, retriesAllowed, retryDelay, RetryPolicy, shouldRetry, withRetry } from "../../api/retry";
import type { Connection } from "./connection";
import { interrupted, pause } from "./interrupt";
import { log } from "./log";
import { ZoneSpec } from "../specs";
import { ListCache, rowByName, sameName, ZoneRow } from "./zoneLookup";

/** What a create settled by lookup returns in place of the create answer. */
export type RecoveredCreate = {
  id: number;
  recovered: true;
  /** The listZones row the zone was found as. */
  row: ZoneRow;
};

/** Whether an existing zone holds what our create sent (the fields listZones can show). */
export function matchesSent(spec: ZoneSpec, row: ZoneRow, values: Record<string, string>): boolean {
  return spec.fields.every((f) => {
    if (!f.listed || values[f.wire] === undefined) return true;
    // A live row may carry no name at all (§2.2 shows only `id`): nothing to compare then.
    if (f.wire === "name") return row.name === undefined || sameName(row.name, values.name);
    return (row[f.wire] ?? "") === values[f.wire];
  });
}

/** A listZones answer without a zone the server has just said exists: stale, worth asking again. */
class StaleListError extends CdnError {
  constructor(method: string, name: string) {
    super("protocol", `${method} does not show zone '${name}', which the create's answer says exists`, method);
  }

  get retryable(): boolean {
    return true;
  }
}

/**
 * Where a create with recovery stands. Each state names what happens next; {@link CreateRecovery} moves from one to
 * the next until the create is `done` or has `failed`:
 *
 *   attempt n --answer--> done
 *   attempt n --lost or retryable, budget left--> backoff n --> attempt n+1 (looking the zone up first after a loss)
 *   attempt n --name in use after a loss--> proven --> found | failed
 *   attempt n --out of attempts, or refused for good--> spent --> found | failed
 *   found --ours--> done;  found --existed before, another resource's, or differs--> failed (name in use)
 *   any state, the host asked to stop --> failed (what is known of the zone)
 */
type State =
  | { at: "attempt"; n: number }
  | { at: "backoff"; n: number; error: CdnError }
  | { at: "proven"; inUse: CdnNameInUseError }
  | { at: "spent"; last: CdnError }
  | { at: "found"; row: ZoneRow }
  | { at: "done"; result: Record<string, unknown> }
  | { at: "failed"; error: Error };

/** The create answer, or a {@link RecoveredCreate} when a lost answer was settled by lookup. */
export async function createWithRecovery(
  spec: ZoneSpec,
  conn: Connection,
  values: Record<string, string>,
  /** The kind's zones before this deployment created any (ListCache.snapshot). */
  before: readonly ZoneRow[],
  /** How to wait between attempts and lookups (tests record the delays instead of waiting). */
  { sleep = pause }: { sleep?: (ms: number) => Promise<void> } = {},
): Promise<Record<string, unknown>> {
  return new CreateRecovery(spec, conn, values, before, sleep).run();
}

/** One create with recovery: the facts it learns on the way, and one method per state. */
class CreateRecovery {
  private readonly policy: RetryPolicy = this.conn.client.retryPolicy;
  private readonly method = `${this.spec.group}.create`;
  private readonly listMethod = `${this.spec.group}.listZones`;
  private readonly name = this.values.name;
  private readonly started = Date.now();
  /** The last attempt whose answer was lost: it may have made the zone, whatever a list said since. */
  private lost: CdnError | undefined;
  /** Attempts sent so far. */
  private made = 0;
  private lastError: CdnError | undefined;

  constructor(
    private readonly spec: ZoneSpec,
    private readonly conn: Connection,
    private readonly values: Record<string, string>,
    private readonly before: readonly ZoneRow[],
    /** Waits end early when the host is asked to stop (interrupt.ts, `pause`). */
    private readonly sleep: (ms: number) => Promise<void>,
  ) {}

  async run(): Promise<Record<string, unknown>> {
    let state: State = { at: "attempt", n: 1 };
    for (;;) {
      if (state.at === "done") return state.result;
      if (state.at === "failed") throw state.error;
      if (state.at === "attempt") state = await this.attempt(state.n);
      else if (state.at === "backoff") state = await this.backoff(state.n, state.error);
      else if (state.at === "proven") state = await this.proven(state.inUse);
      else if (state.at === "spent") state = await this.spent(state.last);
      else state = this.found(state.row);
    }
  }

  /** Sends attempt `n`, after looking the zone up when an earlier answer was lost (that attempt may have made it). */
  private async attempt(n: number): Promise<State> {
    if (interrupted()) return this.stopped(n - 1, this.lastError);
    if (this.lost) {
      const found = await lookUp(this.spec, this.conn.lists, this.name);
      if (found.row) return { at: "found", row: found.row };
    }
    this.made = n;
    try {
      const answer = await this.conn.client[this.spec.group].create({ values: this.values } as never);
      return { at: "done", result: answer as unknown as Record<string, unknown> };
    } catch (e) {
      if (!(e instanceof CdnError)) return { at: "failed", error: e as Error };
      this.lastError = e;
      // Without a lost answer, no attempt of ours can have taken the name.
      if (e instanceof CdnNameInUseError) return this.lost ? { at: "proven", inUse: e } : { at: "failed", error: e };
      const more = n <= retriesAllowed(this.policy, e, false) && shouldRetry(e, n);
      // May the server have run it (answer lost)? A cut or garbled body: yes; any other error is an answer it gave.
      if (e instanceof CdnProtocolError || (e instanceof CdnTransportError && e.maybeProcessed)) {
        this.lost = e;
        if (more)
          log(
            `${this.spec.label} '${this.name}': ${this.method} attempt ${n} failed (${e.message}); looking the zone up before trying again`,
          );
      }
      if (more) return { at: "backoff", n, error: e };
      e.attempts = n;
      return { at: "spent", last: e };
    }
  }

  /** Waits as the one retry policy says (api/retry.ts), `Retry-After` included, before attempt `n + 1`. */
  private async backoff(n: number, error: CdnError): Promise<State> {
    await this.sleep(retryDelay(error, n, this.policy));
    return { at: "attempt", n: n + 1 };
  }

  /** A name-in-use answer after a lost one: the zone exists, so a list that does not show it is stale. */
  private async proven(inUse: CdnNameInUseError): Promise<State> {
    const lost = this.lost!;
    const found = await this.settle(true);
    if (found.row) return { at: "found", row: found.row };
    if (!found.known) return this.unsettled(lost, this.unknown(found.error));
    return this.unsettled(
      lost,
      `${this.method} then answered error ${inUse.code} (name in use), yet ${this.listMethod} did not show the zone in ${found.lookups} lookup${found.lookups === 1 ? "" : "s"}: ` +
        `it is most likely the zone the attempt whose answer was lost made, not another's. The next \`pulumi up\` reports the name in use: ` +
        `set \`adopt: true\` on the resource to take it over`,
    );
  }

  /** Out of attempts, or refused for good. If an attempt may have made the zone, find out before failing. */
  private async spent(last: CdnError): Promise<State> {
    if (interrupted()) return this.stopped(this.made, last);
    if (!this.lost) return { at: "failed", error: afterBudget(last, this.started) };
    const found = await this.settle(false);
    if (found.row) return { at: "found", row: found.row };
    if (!found.known) return this.unsettled(last, this.unknown(found.error));
    // One answer without the zone may be short: a second must agree before "none was made" is said.
    const again = await lookUp(this.spec, this.conn.lists, this.name);
    if (again.row) return { at: "found", row: again.row };
    return this.unsettled(last, `${this.listMethod} shows no zone '${this.name}', so none was made (asked twice)`);
  }

  /** A zone of ours found takes over; one that existed before, another resource's, or one that differs is a clash. */
  private found(row: ZoneRow): State {
    const code = CREATE_ERROR_CODES[this.spec.group].nameInUse;
    const clash = (why: string): State => ({
      at: "failed",
      error: new CdnNameInUseError(
        code,
        this.method,
        this.name,
        `${this.name} is already in use (by zone ${row.id}, ${why})`,
      ),
    });
    if (this.before.some((z) => z.id === row.id)) return clash("which existed before this deployment");
    if (this.conn.identity.claimedBy(this.spec, row.id) !== undefined)
      return clash("which another resource of this deployment manages");
    if (!matchesSent(this.spec, row, this.values)) return clash("which does not match what was sent");
    const recovered: RecoveredCreate = { id: row.id, recovered: true, row };
    return { at: "done", result: recovered };
  }

  /**
   * Looks the zone up until listZones answers; with `proven` (the server said it exists) an answer without it is stale
   * too, and it gets twice the lookups: giving up would leave it out of state. `lookups`: the answers read.
   */
  private async settle(proven: boolean): Promise<Lookup & { lookups: number }> {
    const policy = proven ? { ...this.policy, retries: 2 * (this.policy.retries + 1) - 1 } : this.policy;
    let found: Lookup = { known: false };
    let lookups = 0;
    const once = async (): Promise<void> => {
      // Asked to stop: no further lookup; `found` stays the last one.
      if (interrupted()) throw new Error("interrupted");
      found = await lookUp(this.spec, this.conn.lists, this.name);
      if (found.known) lookups++;
      if (!found.known) throw found.error ?? new CdnProtocolError("no answer", this.listMethod);
      if (proven && !found.row) throw new StaleListError(this.listMethod, this.name);
    };
    // On failure `found` holds the last lookup: unanswered, or (proven) answered without the zone.
    await withRetry(once, policy, undefined, this.sleep).catch(() => undefined);
    return { ...found, lookups };
  }

  /** The create ends without the zone's id: `err` with the attempts, their time and what is known of the zone. */
  private unsettled(err: CdnError, outcome: string): State {
    err.attempts = this.made;
    const spent = afterBudget(err, this.started);
    const given = withMessage(spent, `${spent.message}; ${outcome}`);
    return { at: "failed", error: given };
  }

  private unknown(lookupError: CdnError | undefined): string {
    return (
      `whether the zone was made is unknown: ${this.listMethod} failed too (${lookupError?.message ?? "no answer"}). ` +
      `If it was, the next \`pulumi up\` reports the name in use: set \`adopt: true\` on the resource to take it over`
    );
  }

  /** The host was asked to stop: no further attempt, backoff or lookup starts; says whether the zone may exist. */
  private stopped(attempt: number, last: CdnError | undefined): State {
    const made = this.lost
      ? "an attempt's answer was lost, so whether the zone was made is unknown"
      : attempt === 0
        ? "nothing was sent"
        : "no attempt made it";
    const error = new Error(
      `interrupted after ${attempt} attempt${attempt === 1 ? "" : "s"} of ${this.method} (${made})${last ? `; last error: ${last.message}` : ""}`,
    );
    return { at: "failed", error };
  }
}

interface Lookup {
  row?: ZoneRow;
  /** The lookup answered (the zone is absent when `row` is undefined). */
  known: boolean;
  error?: CdnError;
}

/** The zone by name; `known: false` when listZones itself failed (after the client's own retries). */
async function lookUp(spec: ZoneSpec, lists: ListCache, name: string): Promise<Lookup> {
  try {
    const row = rowByName(await lists.fresh(spec), name);
    return { row, known: true };
  } catch (e) {
    return { known: false, error: e instanceof CdnError ? e : undefined };
  }
}
