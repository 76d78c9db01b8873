/**
 * A create is never repeated blindly: when its answer is lost (connection dropped, timeout, 5xx,
 * a cut body) the zone may exist. Before trying again we look for it by name through listZones
 * and take it over when it is ours: absent from the snapshot taken before this deployment's first
 * create of the kind (so it did not exist before we came), not claimed by another resource of the
 * deployment, and holding what was sent. A zone of that name that existed before is "name in use",
 * never taken over without `adopt`. Names are unique per kind, so this can never make a duplicate.
 *
 * When the budget runs out while an attempt may have made the zone, the lookups go on (they are
 * reads, safe to repeat) so that a zone that exists is taken over rather than forgotten: the
 * engine only keeps in state what a create reports with an id.
 *
 * When the host is asked to stop (interrupt.ts), no further attempt, backoff or lookup starts: the create
 * ends at once, saying whether an attempt may have made the zone.
 */
import { CdnClient } from "../api/client";
import { CdnError, CdnNameInUseError, CdnProtocolError, CdnTransportError, withMessage } from "../api/errors";
import { CREATE_ERROR_CODES } from "../api/wire";
import { backoffDelay, RetryPolicy, shouldRetry } from "../api/retry";
import { DeploymentIdentity } from "./identity";
import { interrupted, pause } from "./interrupt";
import { log } from "./log";
import { ZoneSpec } from "./specs";
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

/** The create answer, or a {@link RecoveredCreate} when a lost answer was settled by lookup. */
export async function createWithRecovery(
  spec: ZoneSpec,
  conn: { client: CdnClient; lists: ListCache; identity: DeploymentIdentity },
  values: Record<string, string>,
  /** The kind's zones before this deployment created any (ListCache.snapshot). */
  before: readonly ZoneRow[],
  attempts = conn.client.retryPolicy.retries + 1,
): Promise<Record<string, unknown>> {
  const { client, lists, identity } = conn;
  const policy = { ...client.retryPolicy, retries: attempts - 1 };
  const method = `${spec.group}.create`;
  const name = values.name;
  /** An attempt whose answer was lost may have made the zone, and no lookup has ruled it out since. */
  let unsettled = false;
  let last: CdnError | undefined;
  let lookupError: CdnError | undefined;
  let attempt = 0;

  /** Ends the create: a zone of ours found takes over; one that existed before, another resource's, or one that differs is a clash. */
  const decide = (row: ZoneRow): RecoveredCreate => {
    const code = CREATE_ERROR_CODES[spec.group].nameInUse;
    const clash = (why: string) => new CdnNameInUseError(code, method, name, `${name} is already in use (${why})`);
    if (before.some((z) => z.id === row.id)) throw clash(`by zone ${row.id}, which existed before this deployment`);
    const owner = identity.claimedBy(spec, row.id);
    if (owner !== undefined) throw clash(`by zone ${row.id}, which another resource of this deployment manages`);
    if (!matchesSent(spec, row, values)) throw clash(`by zone ${row.id}, which does not match what was sent`);
    return { id: row.id, recovered: true, row };
  };

  while (attempt < attempts) {
    if (interrupted()) throw stopped(method, attempt, unsettled, last);
    attempt++;
    try {
      return (await client[spec.group].create(values as never)) as unknown as Record<string, unknown>;
    } catch (e) {
      if (!(e instanceof CdnError)) throw e;
      if (e instanceof CdnNameInUseError && !unsettled && !last) throw e; // the name was taken before we came
      if (e instanceof CdnNameInUseError) {
        // An earlier attempt whose answer we lost may have made it.
        const found = await settle(spec, lists, name, policy);
        if (found.row) return decide(found.row);
        if (found.known) throw e; // taken meanwhile and gone again: nothing of ours to keep
        last = e;
        lookupError = found.error;
        unsettled = true;
        break;
      }
      last = e;
      if (mayHaveBeenProcessed(e)) unsettled = true;
      if (!shouldRetry(e, attempt)) break;
    }
    if (attempt >= attempts) break;
    if (interrupted()) throw stopped(method, attempt, unsettled, last);
    if (unsettled) {
      log(
        `${spec.label} '${name}': ${method} attempt ${attempt} failed (${last.message}); looking the zone up before trying again`,
      );
      const found = await lookUp(spec, lists, name);
      if (found.row) return decide(found.row);
      if (found.known) unsettled = false;
      else lookupError = found.error;
    }
    await pause(backoffDelay(attempt, policy));
  }
  if (interrupted()) throw stopped(method, attempt, unsettled, last);

  // Out of attempts (or refused for good). If an attempt may have made the zone, find out before failing.
  const err = withMessage(last!, last!.message);
  err.attempts = attempt;
  if (!unsettled && attempt === 1 && !shouldRetry(err, attempt)) throw err; // refused at once: no budget involved
  let outcome = "";
  if (unsettled) {
    const found = await settle(spec, lists, name, policy);
    if (found.row) return decide(found.row);
    if (found.known) outcome = `; ${spec.group}.listZones shows no zone '${name}', so none was made`;
    else {
      lookupError = found.error ?? lookupError;
      outcome =
        `; whether the zone was made is unknown: ${spec.group}.listZones failed too (${lookupError?.message ?? "no answer"}). ` +
        `If it was, the next \`pulumi up\` reports the name in use: set \`adopt: true\` on the resource to take it over`;
    }
  }
  // A new error of the same class (its type and retryability kept), the client's own left as it was.
  const given = withMessage(
    err,
    `${err.message}; gave up after ${attempt} attempt${attempt === 1 ? "" : "s"} of ${method} (retry budget: cdn:retries / CDN_RETRIES)${outcome}`,
  );
  given.attempts = attempt;
  throw given;
}

/** The create ended because the host was asked to stop. */
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

/** Looks the zone up until listZones answers, at most `policy.retries + 1` times. */
async function settle(spec: ZoneSpec, lists: ListCache, name: string, policy: RetryPolicy): Promise<Lookup> {
  let found: Lookup = { known: false };
  for (let i = 1; i <= policy.retries + 1; i++) {
    found = await lookUp(spec, lists, name);
    if (found.known || interrupted()) return found;
    if (i <= policy.retries) await pause(backoffDelay(i, policy));
  }
  return found;
}
