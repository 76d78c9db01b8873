/**
 * The zone groups' methods: create, update, listZones, and delete where the kinds' table says the API can.
 * One set of functions serves every kind; the kind's row decides the fields, the §7 error codes and the shape of
 * the create result.
 */
import { kindInfo, kindOfGroup, ZONE_GROUPS, type ZoneGroup } from "../../api/kinds";
import { findMethod, ZONE_CREATE_KEYS, type WireName } from "../../api/methods";
import { CREATE_ERROR_CODES } from "../../api/wire";
import type { WireOut } from "../../api/xmlrpc";
import type { Handler, HandlerContext, HandlersOf } from "./context";
import type { StoredZone, ZonePatch } from "../store/store";
import { fieldsProblem, hashPassword, nameProblem, originProblem } from "./zone-rules";
import { AS_INT, COMPUTED, computedOf, originFieldOf, STORED_SHAPES, zoneRow } from "../zone-fields";

/** The outcome of a create: the new zone, or the §7 `(errorCode, errorString)` pair. */
export type CreateOutcome = { ok: true; zone: Readonly<StoredZone> } | { ok: false; code: number; message: string };

/** The kinds whose create takes a password require one. */
const hasPassword = (group: ZoneGroup): boolean => ZONE_CREATE_KEYS[group].includes("password");

function failed(group: ZoneGroup, reason: string): CreateOutcome {
  return {
    ok: false,
    code: CREATE_ERROR_CODES[group].failed,
    message: `${kindInfo(kindOfGroup(group)).apiLabel} creation failed: ${reason}`,
  };
}

/** Creates a zone after the checks a real service would make; never throws for bad values. */
export function createZone(
  ctx: HandlerContext,
  group: ZoneGroup,
  values: Readonly<Record<string, string>>,
): CreateOutcome {
  const name = values.name ?? "";
  const problem = nameProblem(name) ?? fieldsProblem(values);
  if (problem) return failed(group, problem);
  if (hasPassword(group) && !values.password) return failed(group, "password must not be empty");
  if (ctx.store.zoneByName(group, name))
    return { ok: false, code: CREATE_ERROR_CODES[group].nameInUse, message: `${name} is already in use` };
  const refused = originRefused(group, values);
  if (refused) return refused;
  // The kind's strings only ("" where not given), the password as its hash, the values listZones shows drawn now.
  const fields: { name: string; [field: string]: string } = {
    ...Object.fromEntries([...STORED_SHAPES[group].keys()].map((f) => [f, values[f] ?? ""])),
    name,
  };
  if (hasPassword(group)) fields.passwordHash = hashPassword(values.password);
  for (const c of computedOf(group)) if (c.fromList) fields[c.wire] = COMPUTED[c.wire](fields, ctx);
  return { ok: true, zone: ctx.store.insertZone(group, fields, ctx.now()) };
}

/** A create refused for its origin (a kind with an origin field: pull zones), with the §7 code the kind has for it. */
function originRefused(group: ZoneGroup, values: Readonly<Record<string, string>>): CreateOutcome | undefined {
  const field = originFieldOf(group);
  if (!field) return undefined;
  const origin = values[field] ?? "";
  const bad = originProblem(origin);
  if (!bad) return undefined;
  const codes: { failed: number; originUnresolvable?: number } = CREATE_ERROR_CODES[group];
  if (bad.kind === "failed" || codes.originUnresolvable === undefined)
    return failed(group, bad.kind === "failed" ? bad.reason : `${origin} does not resolve`);
  return { ok: false, code: codes.originUnresolvable, message: `${origin} does not resolve` };
}

/**
 * Applies `values` (keys already checked by the caller: the kind's own) to a zone of `group`; returns why it was
 * refused, or undefined once applied. A refused change leaves the zone untouched.
 */
export function changeZone(
  ctx: HandlerContext,
  group: ZoneGroup,
  id: number,
  values: Readonly<Record<string, string>>,
): string | undefined {
  const zone = ctx.store.zone(id);
  if (!zone || zone.kind !== group) return `no ${group} with id ${id}`;
  const { password, ...patch }: ZonePatch & { password?: string } = values;
  if (values.name !== undefined && values.name !== zone.name) {
    const problem = nameProblem(values.name);
    if (problem) return problem;
    const holder = ctx.store.zoneByName(group, values.name);
    if (holder && holder.id !== id) return `${values.name} is already in use`;
  }
  const tooLong = fieldsProblem(values);
  if (tooLong) return tooLong;
  if (password !== undefined) {
    if (!hasPassword(group)) return `${group} has no password`;
    if (password === "") return "password must not be empty";
    patch.passwordHash = hashPassword(password);
  }
  const originField = originFieldOf(group);
  const origin = originField ? values[originField] : undefined;
  if (origin !== undefined && originProblem(origin)) return `origin ${origin} is not usable`;
  if (Object.keys(patch).length > 0) ctx.store.updateZone(id, patch);
  return undefined;
}

/**
 * The struct of a successful create (§4.2-§4.5): the id, then the computed values the kinds' table says create gives,
 * kept ones as stored, the others made now; in the wire type the table gives (§4.4: VOD's vanity_ip is an int).
 */
function createResult(zone: Readonly<StoredZone>, ctx: HandlerContext): Record<string, WireOut> {
  const out: Record<string, WireOut> = { id: zone.id };
  for (const c of computedOf(zone.kind)) {
    if (!c.fromCreate) continue;
    const value = zone[c.wire] ?? COMPUTED[c.wire](zone, ctx);
    const asInt = c.createWireType === "int" ? AS_INT[c.wire] : undefined;
    out[c.wire] = asInt ? asInt(value) : value;
  }
  return out;
}

/** Method names of any zone group (`create`, ..., and livezone's `delete`). */
type AnyZoneMethod = WireName extends infer W ? (W extends `${ZoneGroup}.${infer M}` ? M : never) : never;
/** Each zone method's handler; each takes the arguments of that method in any zone group. */
type ZoneGroupHandlers = { readonly [M in AnyZoneMethod]: Handler<Extract<WireName, `${ZoneGroup}.${M}`>> };

/** The handlers of one zone group's methods; `<group>.delete` is served only where the table has it (deletable). */
function zoneMethods(group: ZoneGroup): ZoneGroupHandlers {
  return {
    create: (ctx, args) => {
      const outcome = createZone(ctx, group, args.values);
      return outcome.ok ? [0, createResult(outcome.zone, ctx)] : [outcome.code, outcome.message];
    },
    update: (ctx, args) => (changeZone(ctx, group, args.id, args.values) === undefined ? 0 : 1),
    listZones: (ctx) => ctx.store.zones(group).map(zoneRow),
    delete: (ctx, args) => (ctx.store.zone(args.id)?.kind === group && ctx.store.deleteZone(args.id) ? 0 : 1),
  };
}

/**
 * The handlers of the zone groups' methods of the table, by wire name. The overload states the keys, which are strings
 * to the compiler when built at run time (and the handlers take no type assertion).
 */
function handlersOfTable(): HandlersOf<ZoneGroup>;
function handlersOfTable(): Record<string, unknown> {
  return Object.fromEntries(
    ZONE_GROUPS.flatMap((group) =>
      Object.entries(zoneMethods(group)).flatMap(([m, handler]) =>
        findMethod(`${group}.${m}`) ? [[`${group}.${m}`, handler]] : [],
      ),
    ),
  );
}
export const zoneHandlers = handlersOfTable();
