/**
 * The program's zones as a whole (issue 32: a preview is the gate). The engine stops at the first check failure, in
 * a preview as in an `up` (docs/pulumi-engine.md), so each zone carries its place in its batch (zoneResource.ts,
 * `enrol`; the plugin's, plugin/places.ts) and the check completing a batch fails with all its problems. An open
 * batch (a plugin program that cannot say its zones) fails each check that finds a problem, with every problem not
 * yet failed. A batch never seen whole (`--target`) fails nothing here: each create still refuses.
 */
import type { ZoneSpec } from "../specs";
import type { Connection } from "./connection";

/** A zone's place in its batch, as the program sends it (JSON text in `__autoNameScope`). */
export interface Place {
  resource: string;
  batch: string;
  seq: number;
  /** The batch's size: carried by its first zone only. */
  count?: number;
  /** No size will come: every check with a problem fails at once. */
  open?: boolean;
}

/** The place the program sent in its hidden input (`__autoNameScope`), when it is well formed. */
export function readPlace(text: unknown): Place | undefined {
  let p: Partial<Place> | undefined;
  try {
    p = typeof text === "string" ? (JSON.parse(text) as Partial<Place>) : undefined;
  } catch {
    return undefined;
  }
  const index = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0;
  if (!p || typeof p.resource !== "string" || typeof p.batch !== "string" || !index(p.seq)) return undefined;
  if (p.count !== undefined && (!index(p.count) || p.seq >= p.count)) return undefined;
  return { resource: p.resource, batch: p.batch, seq: p.seq, count: p.count, open: p.open === true };
}

/** What one batch's checks found so far. */
class Batch {
  readonly seen = new Set<number>();
  count?: number;
  readonly problems: string[] = [];
  readonly adopted: string[] = [];
  done = false;

  get whole(): boolean {
    return this.count !== undefined && this.seen.size >= this.count;
  }
}

const batches = new WeakMap<object, Map<string, Batch>>();
/** `<group>:<zone name>` -> the resource that declares it, in the whole deployment (one identity per deployment). */
const declaredNames = new WeakMap<object, Map<string, string>>();

function batchOf(conn: Connection, place: Place): Batch {
  let all = batches.get(conn.identity);
  if (!all) batches.set(conn.identity, (all = new Map()));
  let b = all.get(place.batch);
  if (!b) all.set(place.batch, (b = new Batch()));
  return b;
}

/**
 * A problem of one zone that its own create refuses, said at once and gathered for the batch's failure; or an
 * adoption, counted for the line the batch's last check says.
 */
export function gather(conn: Connection, place: Place | undefined, list: "problems" | "adopted", text: string): void {
  if (place) batchOf(conn, place)[list].push(text);
}

/**
 * Records a zone's check (a name two resources declare is a problem); the check completing the batch gets its
 * failure and adoption line. `name` is undefined while unknown.
 */
export function checked(
  spec: ZoneSpec,
  conn: Connection,
  place: Place,
  name: string | undefined,
): { failure?: string; adoptions?: string } {
  const b = batchOf(conn, place);
  let names = declaredNames.get(conn.identity);
  if (!names) declaredNames.set(conn.identity, (names = new Map()));
  if (name !== undefined) {
    const key = `${spec.group}:${name}`;
    const other = names.get(key);
    if (other !== undefined && other !== place.resource) {
      // Named in one order: the engine checks resources concurrently, so which came first differs from run to run.
      const [first, second] = [other, place.resource].sort();
      b.problems.push(
        `${spec.label} '${name}' is declared by two resources, '${first}' and '${second}': one zone, one resource`,
      );
    } else names.set(key, place.resource);
  }
  b.seen.add(place.seq);
  if (place.count !== undefined) b.count = place.count;
  if (b.done || !(b.whole || place.open)) return {};
  b.done = !place.open;
  const problems = b.problems.splice(0);
  const n = b.whole ? b.adopted.length : 0;
  return {
    failure: problems.length
      ? `${problems.length} zone${problems.length === 1 ? "" : "s"} of this program cannot be created as declared:\n- ${problems.join("\n- ")}`
      : undefined,
    adoptions: n
      ? `${n} of this deployment's creates adopt zones that exist (nothing new is made for them): ${b.adopted.slice(0, 10).join(", ")}${n > 10 ? ` and ${n - 10} more` : ""}`
      : undefined,
  };
}

const said = new WeakMap<object, Set<string>>();

/** Whether `key` is said for the first time in this deployment (one identity per deployment): a warning once. */
export function firstTime(conn: Connection, key: string): boolean {
  let seen = said.get(conn.identity);
  if (!seen) said.set(conn.identity, (seen = new Set()));
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
}
