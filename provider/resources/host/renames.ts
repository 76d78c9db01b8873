/**
 * Zones a rename leaves behind. A resource renamed in the program without `aliases` is a new
 * resource to the engine: it is created (with a new auto-name), and the old one is dropped from the
 * state as a retained delete, for which the engine calls no provider method at all (pull, push and
 * VOD zones are `retainOnDelete`: the API cannot delete them). The provider sees only the new
 * resource's check, with no stored inputs; so that check looks in the account (the listZones snapshot
 * it reads anyway for "name in use") for zones this stack auto-named for a resource the program no
 * longer declares, and says at preview that each one stays in the account, and how to keep it.
 */
import type { Connection } from "./connection";
import { warn } from "./log";
import { leftBehindMessage, takeBackMessage } from "./messages";
import { AUTO_NAME_SCOPE, AutoNameScope, autoName, autoNameOwner } from "../naming";
import type { ZoneSpec } from "../specs";
import { sameName, type ZoneRow } from "./zoneLookup";

type Props = Record<string, unknown>;

/** Removes the hidden scope from the program's inputs; returns it when it is well formed. */
export function takeScope(news: Props): AutoNameScope | undefined {
  const s = news[AUTO_NAME_SCOPE] as Partial<AutoNameScope> | undefined;
  delete news[AUTO_NAME_SCOPE];
  const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");
  if (!s || typeof s !== "object" || typeof s.resource !== "string") return undefined;
  if (!strings(s.stack) || !strings(s.aliases) || !strings(s.declared)) return undefined;
  return { stack: s.stack, resource: s.resource, aliases: s.aliases, declared: s.declared };
}

/** Zones of `rows` this stack auto-named for a resource the program does not declare and no resource of this deployment manages. */
export function leftBehind(
  spec: ZoneSpec,
  rows: readonly ZoneRow[],
  scope: AutoNameScope,
  conn: Connection,
): { row: ZoneRow; owner: string }[] {
  if (spec.deletable) return [];
  const declared = new Set([...scope.declared, scope.resource]);
  const found: { row: ZoneRow; owner: string }[] = [];
  for (const row of rows) {
    if (typeof row.name !== "string") continue;
    const owner = autoNameOwner(row.name, scope.stack);
    if (owner === undefined || declared.has(owner)) continue;
    if (conn.identity.claimedBy(spec, row.id) !== undefined) continue;
    found.push({ row, owner });
  }
  return found;
}

/**
 * A zone this stack auto-named for one of the resource's aliases, when the resource reaches check as a
 * new one: a `pulumi up --replace` of a renamed resource (the engine hides its stored name from check,
 * and the candidate is the new resource name's auto-name), or a zone left behind by the resource the
 * alias names. Either way a new zone must not be made beside it.
 */
export function aliasZone(rows: readonly ZoneRow[], scope: AutoNameScope): { row: ZoneRow; alias: string } | undefined {
  for (const alias of scope.aliases) {
    const name = autoName(alias, scope.stack);
    const row = rows.find((z) => typeof z.name === "string" && sameName(z.name, name));
    if (row) return { row, alias };
  }
  return undefined;
}

const warned = new WeakMap<object, Set<string>>();

/** Warns, once per zone and deployment, about each zone a new resource's check finds left behind. */
export function warnLeftBehind(spec: ZoneSpec, rows: readonly ZoneRow[], scope: AutoNameScope, conn: Connection): void {
  let seen = warned.get(conn.identity);
  if (!seen) warned.set(conn.identity, (seen = new Set()));
  for (const { row, owner } of leftBehind(spec, rows, scope, conn)) {
    const key = `${spec.group}:${row.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    warn(leftBehindMessage(spec, row.name, row.id, owner, scope.resource));
  }
}

/**
 * Says at preview that create will take back the zone holding the resource's own auto-name (pull, push and VOD
 * zones: a live zone's `--replace` deletes it first, so its create makes a new one).
 */
export function warnTakeBack(spec: ZoneSpec, row: ZoneRow, conn: Connection): void {
  let seen = warned.get(conn.identity);
  if (!seen) warned.set(conn.identity, (seen = new Set()));
  const key = `${spec.group}:${row.id}:take`;
  if (seen.has(key)) return;
  seen.add(key);
  warn(takeBackMessage(spec, row.name, row.id));
}
