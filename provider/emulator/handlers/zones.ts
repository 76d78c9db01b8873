/**
 * pullzone.*, pushzone.*, vodzone.* and livezone.*: create, update, listZones (and
 * livezone.delete). One set of functions serves the four kinds; the kind decides the
 * fields, the §7 error codes and the shape of the create result.
 */
import { kindInfo, kindOfGroup, type ZoneGroup } from "../../api/kinds";
import { ZONE_CREATE_KEYS } from "../../api/methods";
import { CREATE_ERROR_CODES, ZONE_ROW_FIELDS } from "../../api/wire";
import type { WireOut } from "../xml/response";
import { perZoneGroup, type ZoneGroupHandlers } from "../zone-groups";
import type { Account, HandlerContext, HandlersOf } from "./context";
import type { StoredZone, ZonePatch } from "../store/store";
import {
  cdnHost,
  fieldsProblem,
  hashPassword,
  ipToInt,
  nameProblem,
  originProblem,
  storageLocation,
  vanityIp,
} from "./zone-rules";

/** The outcome of a create: the new zone, or the §7 `(errorCode, errorString)` pair. */
export type CreateOutcome = { ok: true; zone: Readonly<StoredZone> } | { ok: false; code: number; message: string };

const STRING_FIELDS = ["label", "origin", "vhost", "ip", "compress", "vanity_domain"] as const;
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
  if (group === "pullzone") {
    const origin = values.origin ?? "";
    const bad = originProblem(origin);
    if (bad?.kind === "failed") return failed(group, bad.reason);
    if (bad)
      return { ok: false, code: CREATE_ERROR_CODES.pullzone.originUnresolvable, message: `${origin} does not resolve` };
  }
  const fields = {
    name,
    label: "",
    origin: "",
    vhost: "",
    ip: "",
    compress: "",
    vanity_domain: "",
    vanity_ip: "",
    storage_location: "",
    passwordHash: hasPassword(group) ? hashPassword(values.password) : "",
  };
  for (const key of STRING_FIELDS) if (values[key] !== undefined) fields[key] = values[key];
  const zone = ctx.store.insertZone(group, fields, ctx.now());
  // Derived fields depend on the id, known only after the insert.
  const derived: ZonePatch = {};
  if (group === "pullzone" || group === "pushzone") derived.vanity_ip = vanityIp(zone.id);
  if (group === "pushzone" || group === "vodzone") derived.storage_location = storageLocation(zone.id, ctx.account);
  return { ok: true, zone: ctx.store.updateZone(zone.id, derived) ?? zone };
}

/**
 * Applies `values` (keys already checked by the caller) to a zone of `group`; returns why it was
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
  const patch: ZonePatch = {};
  if (values.name !== undefined && values.name !== zone.name) {
    const problem = nameProblem(values.name);
    if (problem) return problem;
    const holder = ctx.store.zoneByName(group, values.name);
    if (holder && holder.id !== id) return `${values.name} is already in use`;
    patch.name = values.name;
  }
  const tooLong = fieldsProblem(values);
  if (tooLong) return tooLong;
  if (values.password !== undefined) {
    if (!hasPassword(group)) return `${group} has no password`;
    if (values.password === "") return "password must not be empty";
    patch.passwordHash = hashPassword(values.password);
  }
  if (values.origin !== undefined && originProblem(values.origin)) return `origin ${values.origin} is not usable`;
  for (const key of STRING_FIELDS) if (values[key] !== undefined) patch[key] = values[key];
  if (Object.keys(patch).length > 0) ctx.store.updateZone(id, patch);
  return undefined;
}

/** The `cdn_url` of pull and push zones. */
export function zoneCdnUrl(zone: Pick<StoredZone, "name">, account: Account): string {
  return cdnHost(zone.name, account);
}

/** A listZones row: exactly ZONE_ROW_FIELDS of the zone's kind. */
export function zoneRow(zone: Readonly<StoredZone>): Record<string, WireOut> {
  const row: Record<string, WireOut> = {};
  for (const field of ZONE_ROW_FIELDS[zone.kind]) row[field] = zone[field];
  return row;
}

/** The struct of a successful create (§4.2-§4.5), per kind. */
export function createResult(zone: Readonly<StoredZone>, account: Account): Record<string, WireOut> {
  switch (zone.kind) {
    case "pullzone":
      return { id: zone.id, vanity_ip: zone.vanity_ip, cdn_url: zoneCdnUrl(zone, account) };
    case "pushzone":
      return {
        id: zone.id,
        vanity_ip: zone.vanity_ip,
        storage_location: zone.storage_location,
        cdn_url: zoneCdnUrl(zone, account),
      };
    case "vodzone":
      // §4.4 types vanity_ip as int here: the address as PHP's ip2long would give it.
      return { id: zone.id, vanity_ip: ipToInt(vanityIp(zone.id)), storage_location: zone.storage_location };
    case "livezone":
      return { id: zone.id };
  }
}

/** The create, update and listZones handlers of one zone group. */
function zoneMethods(group: ZoneGroup): ZoneGroupHandlers {
  return {
    create: (ctx, args) => {
      const outcome = createZone(ctx, group, args.values);
      return outcome.ok ? [0, createResult(outcome.zone, ctx.account)] : [outcome.code, outcome.message];
    },
    update: (ctx, args) => (changeZone(ctx, group, args.id, args.values) === undefined ? 0 : 1),
    listZones: (ctx) => ctx.store.zones(group).map(zoneRow),
  };
}

/** The handlers of the four zone groups; livezone also has delete. */
export const zoneHandlers: HandlersOf<ZoneGroup> = {
  ...perZoneGroup(zoneMethods),
  "livezone.delete": (ctx, args) => {
    const zone = ctx.store.zone(args.id);
    return zone?.kind === "livezone" && ctx.store.deleteZone(zone.id) ? 0 : 1;
  },
};
