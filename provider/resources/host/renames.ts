/**
 * Zones a rename leaves behind. A resource renamed in the program without `aliases` is a new
 * resource to the engine: it is created (with a new auto-name), and the old one is deleted after
 * the creates, a delete that sends nothing for pull, push and VOD zones (the API cannot delete them:
 * left.ts), and comes too late for a preview. Before it, the provider sees only the new resource's
 * check, with no stored inputs; so that check looks in the account (the listZones snapshot
 * it reads anyway for "name in use") for zones this stack auto-named for a resource the program no
 * longer declares, and says at preview that each one stays in the account, and how to keep it.
 */
import type { Connection } from "./connection";
import { warn } from "./log";
import { leftBehindMessage, takeBackMessage } from "./messages";
import { AUTO_NAME_SCOPE, AutoNameScope, autoName, autoNameOwner } from "../naming";
import type { ZoneSpec } from "../specs";
import { rowByName, type ZoneRow } from "./zoneLookup";

type Props = Record<string, unknown>;

/** Removes the hidden scope (a JSON text, zoneResource.ts) from the program's inputs; returns it when it is well formed. */
export function takeScope(news: Props): AutoNameScope | undefined {
  const text = news[AUTO_NAME_SCOPE];
  delete news[AUTO_NAME_SCOPE];
  let s: Partial<AutoNameScope> | undefined;
  try {
    s = typeof text === "string" ? (JSON.parse(text) as Partial<AutoNameScope>) : undefined;
  } catch {
    return undefined;
  }
  const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");
  const index = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0;
  if (!s || typeof s !== "object" || typeof s.resource !== "string" || typeof s.batch !== "string") return undefined;
  if (!strings(s.stack) || !strings(s.aliases) || !index(s.seq)) return undefined;
  if (s.count !== undefined && (!index(s.count) || s.seq >= s.count)) return undefined;
  return { stack: s.stack, resource: s.resource, aliases: s.aliases, batch: s.batch, seq: s.seq, count: s.count };
}

/**
 * What the checks of one deployment have told of the program's zones of one kind: every resource name
 * (aliases included), and which zones of each batch were checked. The engine checks every resource the
 * program registers (step_generator.go), so once a batch's `count` zones have been seen, every name the
 * program declared up to that batch's end is known: memory and work grow with the zones, once each.
 */
class DeclaredNames {
  readonly names = new Set<string>();
  private readonly batches = new Map<string, Batch>();

  /** Records a zone's check, then runs what waited for its batch to be whole. */
  record(scope: AutoNameScope): void {
    this.names.add(scope.resource);
    for (const a of scope.aliases) this.names.add(a);
    const b = this.batch(scope);
    b.seen.add(scope.seq);
    if (scope.count !== undefined) b.count = scope.count;
    if (whole(b)) for (const run of b.waiting.splice(0)) run();
  }

  /**
   * Runs `then` once every zone of the scope's batch has been checked (at once when it has). A batch never
   * seen whole (a `pulumi up --target`, which checks only its targets; a failed registration) runs nothing:
   * a warning is left out rather than said of a zone the program may declare.
   */
  whenWhole(scope: AutoNameScope, then: () => void): void {
    const b = this.batch(scope);
    if (whole(b)) then();
    else b.waiting.push(then);
  }

  private batch(scope: AutoNameScope): Batch {
    let b = this.batches.get(scope.batch);
    if (!b) this.batches.set(scope.batch, (b = { seen: new Set(), waiting: [] }));
    return b;
  }
}

/** The zones of one batch checked so far, its size once its first zone told it, and what waits for it. */
interface Batch {
  seen: Set<number>;
  count?: number;
  waiting: (() => void)[];
}

/** A batch is whole once its first zone told its size and that many of its zones were checked. */
const whole = (b: Batch): boolean => b.count !== undefined && b.seen.size >= b.count;

const declaredByDeployment = new WeakMap<object, Map<string, DeclaredNames>>();

/** The names the checks of this deployment (`conn`) have recorded for the kind. */
function declaredNames(spec: ZoneSpec, conn: Connection): DeclaredNames {
  let kinds = declaredByDeployment.get(conn.identity);
  if (!kinds) declaredByDeployment.set(conn.identity, (kinds = new Map()));
  let d = kinds.get(spec.group);
  if (!d) kinds.set(spec.group, (d = new DeclaredNames()));
  return d;
}

/** Records the resource names of a zone's check (every zone's, new or stored): renames.ts learns what the program declares from them. */
export function recordDeclared(spec: ZoneSpec, conn: Connection, scope: AutoNameScope): void {
  declaredNames(spec, conn).record(scope);
}

/** Zones of `rows` this stack auto-named for a resource the program does not declare and no resource of this deployment manages. */
export function leftBehind(
  spec: ZoneSpec,
  rows: readonly ZoneRow[],
  scope: AutoNameScope,
  conn: Connection,
  declared: ReadonlySet<string>,
): { row: ZoneRow; owner: string }[] {
  if (spec.deletable) return [];
  const found: { row: ZoneRow; owner: string }[] = [];
  for (const row of rows) {
    if (typeof row.name !== "string") continue;
    const owner = autoNameOwner(row.name, scope.stack);
    if (owner === undefined || owner === scope.resource || declared.has(owner)) continue;
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
    const row = rowByName(rows, name);
    if (row) return { row, alias };
  }
  return undefined;
}

const warned = new WeakMap<object, Set<string>>();

/** Whether `key` is said for the first time in this deployment (one identity per deployment): a warning once. */
export function firstTime(conn: Connection, key: string): boolean {
  let seen = warned.get(conn.identity);
  if (!seen) warned.set(conn.identity, (seen = new Set()));
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
}

/**
 * Warns, once per zone and deployment, about each zone a new resource's check finds left behind: once the
 * resource's batch has been checked whole (the names of zones checked after it count too), and once per batch
 * and stack identity, so the account's zones are looked through a few times per deployment, not once per zone.
 */
export function warnLeftBehind(spec: ZoneSpec, rows: readonly ZoneRow[], scope: AutoNameScope, conn: Connection): void {
  if (spec.deletable || !firstTime(conn, `${spec.group}:${scope.batch}:${scope.stack.join("\0")}`)) return;
  const declared = declaredNames(spec, conn);
  declared.whenWhole(scope, () => {
    for (const { row, owner } of leftBehind(spec, rows, scope, conn, declared.names))
      if (firstTime(conn, `${spec.group}:${row.id}`))
        warn(leftBehindMessage(spec, row.name, row.id, owner, scope.resource));
  });
}

/**
 * Says at preview that create will take back the zone holding the resource's own auto-name (pull, push and VOD
 * zones: a live zone's `--replace` deletes it first, so its create makes a new one).
 */
export function warnTakeBack(spec: ZoneSpec, row: ZoneRow, conn: Connection): void {
  if (firstTime(conn, `${spec.group}:${row.id}:take`)) warn(takeBackMessage(spec, row.name, row.id));
}
