/**
 * A create is never repeated blindly: when its answer is lost (connection dropped, timeout, 5xx,
 * a cut body) the zone may exist. Before trying again we look for it by name through listZones
 * and take it over when it matches what was sent; a `name in use` after such a retry is settled
 * the same way. Names are unique per kind, so this can never make a duplicate.
 */
import { CdnClient } from "../api/client";
import { DEFAULT_RETRIES, DEFAULT_RETRY_BASE_MS, DEFAULT_RETRY_MAX_MS } from "../api/config";
import { CdnError, CdnNameInUseError } from "../api/errors";
import { CREATE_ERROR_CODES } from "../api/wire";
import { backoffDelay, shouldRetry } from "../api/retry";
import { log } from "./log";
import { ZoneSpec } from "./specs";
import { ListCache, ZoneRow } from "./zoneLookup";

/** Attempts of one create, counting the first. */
export const CREATE_ATTEMPTS = DEFAULT_RETRIES + 1;

/** Whether an existing zone holds what our create sent (the fields listZones can show). */
export function matchesSent(spec: ZoneSpec, row: ZoneRow, values: Record<string, string>): boolean {
  return spec.fields.every((f) => !f.listed || values[f.wire] === undefined || (row[f.wire] ?? "") === values[f.wire]);
}

/** The create answer, or `{ id, recovered: true }` when a lost answer was settled by lookup. */
export async function createWithRecovery(spec: ZoneSpec, client: CdnClient, lists: ListCache, values: Record<string, string>, attempts = CREATE_ATTEMPTS): Promise<Record<string, unknown>> {
  let last: CdnError | undefined;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      return (await client[spec.group].create(values as never)) as unknown as Record<string, unknown>;
    } catch (e) {
      if (e instanceof CdnNameInUseError && last) {
        // An earlier attempt whose answer we lost may have made it.
        const row = await lists.byName(spec, values.name);
        if (row && matchesSent(spec, row, values)) return { id: row.id, recovered: true };
        throw e;
      }
      if (!(e instanceof CdnError) || !shouldRetry(e, attempt)) throw e;
      last = e;
    }
    log(`${spec.label} '${values.name}': ${spec.group}.create attempt ${attempt} failed (${last.message}); looking the zone up before trying again`);
    const found = await lookUp(spec, lists, values.name);
    if (found === "unknown") {
      if (attempt === attempts) break;
    } else if (found) {
      if (matchesSent(spec, found, values)) return { id: found.id, recovered: true };
      const code = CREATE_ERROR_CODES[spec.group].nameInUse;
      throw new CdnNameInUseError(code, `${spec.group}.create`, values.name, `${values.name} is already in use (by a zone that does not match what was sent)`);
    }
    if (attempt < attempts) await new Promise((r) => setTimeout(r, backoffDelay(attempt, { retries: attempts - 1, baseDelayMs: DEFAULT_RETRY_BASE_MS, maxDelayMs: DEFAULT_RETRY_MAX_MS })));
  }
  const err = last!;
  err.attempts = attempts;
  err.message = `${err.message}; gave up after ${attempts} create attempts, each followed by a lookup that did not find the zone (it may still appear: the next \`pulumi up\` looks it up by name before creating)`;
  throw err;
}

/** The zone by name, or "unknown" when listZones itself failed. */
async function lookUp(spec: ZoneSpec, lists: ListCache, name: string): Promise<ZoneRow | undefined | "unknown"> {
  try {
    return await lists.byName(spec, name, true);
  } catch {
    return "unknown";
  }
}
