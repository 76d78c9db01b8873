/**
 * A create is never repeated blindly: when its answer is lost (connection dropped, timeout, 5xx,
 * a cut body) the zone may exist. Before trying again we look for it by name through listZones
 * and take it over when it is ours: absent from the snapshot taken before this deployment's first
 * create of the kind (so it did not exist before we came), not claimed by another resource of the
 * deployment, and holding what was sent. A zone of that name that existed before is "name in use",
 * never taken over without `adopt`. Names are unique per kind, so this can never make a duplicate.
 *
 * A listZones answer may be stale or short. So one answer without the zone never outweighs a
 * name-in-use answer (2002...) after a lost one: the server has just said a zone of that name
 * exists, and it is most likely the one the lost attempt made. The list is asked again, up to twice
 * the budget's attempts (giving up would leave the zone out of state), and if it never shows the
 * zone the error says so, never that the zone is someone else's.
 * Likewise "none was made" at the end needs two answers without the zone.
 *
 * When the budget runs out while an attempt may have made the zone, the lookups go on (they are
 * reads, safe to repeat) so that a zone that exists is taken over rather than forgotten: the
 * engine only keeps in state what a create reports with an id. Attempts and lookups wait as the
 * one retry policy says (api/retry.ts), `Retry-After` included.
 *
 * When the host is asked to stop (interrupt.ts), no further attempt, backoff or lookup starts: the create
 * ends at once, saying whether an attempt may have made the zone.
 */
import { CdnClient } from "../../api/client";
import { CdnError, CdnNameInUseError, CdnProtocolError, CdnTransportError, withMessage } from "../../api/errors";
import { CREATE_ERROR_CODES } from "../../api/wire";
import { afterBudget, RetryPolicy, shouldRetry, withRetry } from "../../api/retry";
import { DeploymentIdentity } from "./identity";
import { interrupted, pause } from "./interrupt";
import { log } from "./log";
import { ZoneSpec } from "../specs";
import { ListCache, sameName, ZoneRow } from "./zoneLookup";

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

/** Whether a failed attempt may have been carried out by the server (its answer lost). */
export function mayHaveBeenProcessed(e: CdnError): boolean {
  if (e instanceof CdnTransportError) return e.maybeProcessed;
  // A cut or garbled body: the server ran the call and its answer was lost on the way.
  if (e instanceof CdnProtocolError) return true;
  // Any other error is an answer the server gave: a fault (expired auth...) or a create error code.
  return false;
}

/** How a create with recovery may spend its budget. */
export interface RecoveryOptions {
  /** Attempts of the create (default: the client's budget, `retries + 1`); lookups get as many. */
  attempts?: number;
  /** How to wait between attempts and lookups (tests record the delays instead of waiting). */
  sleep?: (ms: number) => Promise<void>;
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

/** Carries an error that ends the create as it is: not retried, no lookups or budget talk added. */
class Verdict {
  constructor(readonly error: Error) {}
}

/** The create answer, or a {@link RecoveredCreate} when a lost answer was settled by lookup. */
export async function createWithRecovery(
  spec: ZoneSpec,
  conn: { client: CdnClient; lists: ListCache; identity: DeploymentIdentity },
  values: Record<string, string>,
  /** The kind's zones before this deployment created any (ListCache.snapshot). */
  before: readonly ZoneRow[],
  options: RecoveryOptions = {},
): Promise<Record<string, unknown>> {
  const { client, lists, identity } = conn;
  const attempts = options.attempts ?? client.retryPolicy.retries + 1;
  const policy: RetryPolicy = { ...client.retryPolicy, retries: attempts - 1 };
  const method = `${spec.group}.create`;
  const listMethod = `${spec.group}.listZones`;
  const name = values.name;
  const started = Date.now();
  // Waits end early when the host is asked to stop (interrupt.ts).
  const sleep = options.sleep ?? pause;
  // A zone the server said exists is left out of state if the lookups give up: it gets twice the lookups.
  const settle = (proven: boolean) =>
    lookUpWithin(spec, lists, name, proven ? { ...policy, retries: 2 * attempts - 1 } : policy, proven, sleep);
  /** The last attempt whose answer was lost: it may have made the zone, whatever a list said since. */
  let lost: CdnError | undefined;
  let made = 0;
  let lastError: CdnError | undefined;

  /** Ends the create: a zone of ours found takes over; one that existed before, another resource's, or one that differs is a clash. */
  const decide = (row: ZoneRow): RecoveredCreate => {
    const code = CREATE_ERROR_CODES[spec.group].nameInUse;
    const clash = (why: string) =>
      new Verdict(new CdnNameInUseError(code, method, name, `${name} is already in use (by zone ${row.id}, ${why})`));
    if (before.some((z) => z.id === row.id)) throw clash("which existed before this deployment");
    if (identity.claimedBy(spec, row.id) !== undefined)
      throw clash("which another resource of this deployment manages");
    if (!matchesSent(spec, row, values)) throw clash("which does not match what was sent");
    return { id: row.id, recovered: true, row };
  };

  /** The error of a create that ends without the zone's id: `err` with the attempts, their time and what is known of the zone. */
  const unsettled = (err: CdnError, outcome: string): Verdict => {
    err.attempts = made;
    const spent = afterBudget(err, started);
    const given = withMessage(spent, `${spent.message}; ${outcome}`);
    given.attempts = made;
    return new Verdict(given);
  };
  const unknown = (lookupError: CdnError | undefined) =>
    `whether the zone was made is unknown: ${listMethod} failed too (${lookupError?.message ?? "no answer"}). ` +
    `If it was, the next \`pulumi up\` reports the name in use: set \`adopt: true\` on the resource to take it over`;

  /** A name-in-use answer after a lost one: the zone exists, so a list that does not show it is stale. */
  const inUseAfterLoss = async (e: CdnNameInUseError, lostErr: CdnError): Promise<RecoveredCreate> => {
    const found = await settle(true);
    if (found.row) return decide(found.row);
    if (!found.known) throw unsettled(lostErr, unknown(found.error));
    throw unsettled(
      lostErr,
      `${method} then answered error ${e.code} (name in use), yet ${listMethod} did not show the zone in ${found.lookups} lookup${found.lookups === 1 ? "" : "s"}: ` +
        `it is most likely the zone the attempt whose answer was lost made, not another's. The next \`pulumi up\` reports the name in use: ` +
        `set \`adopt: true\` on the resource to take it over`,
    );
  };

  const attempt = async (n: number): Promise<Record<string, unknown>> => {
    if (interrupted()) throw new Verdict(stopped(method, n - 1, lost !== undefined, lastError));
    if (lost) {
      // Look before trying again: the lost attempt may have made it.
      const found = await lookUp(spec, lists, name);
      if (found.row) return decide(found.row);
    }
    made = n;
    try {
      return (await client[spec.group].create(values as never)) as unknown as Record<string, unknown>;
    } catch (e) {
      if (!(e instanceof CdnError)) throw e;
      lastError = e;
      if (e instanceof CdnNameInUseError) {
        // Without a lost answer, no attempt of ours can have taken the name.
        if (!lost) throw new Verdict(e);
        return inUseAfterLoss(e, lost);
      }
      if (mayHaveBeenProcessed(e)) {
        lost = e;
        if (n < attempts && shouldRetry(e, n))
          log(
            `${spec.label} '${name}': ${method} attempt ${n} failed (${e.message}); looking the zone up before trying again`,
          );
      }
      throw e;
    }
  };

  /** Out of attempts, or refused for good. If an attempt may have made the zone, find out before failing. */
  const afterAttempts = async (last: CdnError): Promise<RecoveredCreate> => {
    if (interrupted()) throw new Verdict(stopped(method, made, lost !== undefined, last));
    if (!lost) throw new Verdict(afterBudget(last, started));
    const found = await settle(false);
    if (found.row) return decide(found.row);
    if (!found.known) throw unsettled(last, unknown(found.error));
    // One answer without the zone may be short: a second must agree before "none was made" is said.
    const again = await lookUp(spec, lists, name);
    if (again.row) return decide(again.row);
    throw unsettled(last, `${listMethod} shows no zone '${name}', so none was made (asked twice)`);
  };

  try {
    try {
      return await withRetry(attempt, policy, undefined, sleep);
    } catch (e) {
      if (!(e instanceof CdnError)) throw e;
      return await afterAttempts(e);
    }
  } catch (e) {
    throw e instanceof Verdict ? e.error : e;
  }
}

/** The error of a create the host was asked to stop: how far it got, and whether the zone may exist. */
function stopped(method: string, attempt: number, unsettled: boolean, last: CdnError | undefined): Error {
  const made = unsettled
    ? "an attempt's answer was lost, so whether the zone was made is unknown"
    : attempt === 0
      ? "nothing was sent"
      : "no attempt made it";
  return new Error(
    `interrupted after ${attempt} attempt${attempt === 1 ? "" : "s"} of ${method} (${made})${last ? `; last error: ${last.message}` : ""}`,
  );
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
    const row = await lists.byName(spec, name, true);
    return { row, known: true };
  } catch (e) {
    return { known: false, error: e instanceof CdnError ? e : undefined };
  }
}

/**
 * Looks the zone up until listZones answers, at most `policy.retries + 1` times, waiting as the
 * retry policy says. With `proven` (the server said a zone of that name exists) an answer without
 * the zone is stale and asked again too.
 */
async function lookUpWithin(
  spec: ZoneSpec,
  lists: ListCache,
  name: string,
  policy: RetryPolicy,
  proven: boolean,
  sleep?: (ms: number) => Promise<void>,
): Promise<Lookup & { /** listZones answers read. */ lookups: number }> {
  let found: Lookup = { known: false };
  let lookups = 0;
  const once = async (): Promise<Lookup> => {
    // Asked to stop: no further lookup; `found` stays the last one.
    if (interrupted()) throw new Error("interrupted");
    found = await lookUp(spec, lists, name);
    if (found.known) lookups++;
    if (!found.known) throw found.error ?? new CdnProtocolError("no answer", `${spec.group}.listZones`);
    if (proven && !found.row) throw new StaleListError(`${spec.group}.listZones`, name);
    return found;
  };
  try {
    await withRetry(once, policy, undefined, sleep);
  } catch {
    // `found` holds the last lookup: unanswered, or (proven) answered without the zone.
  }
  return { ...found, lookups };
}
