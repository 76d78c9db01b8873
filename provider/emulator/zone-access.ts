/** The handle's zone methods: inspection, and changes as if through the control panel (drift), checked as create's. */
import { kindInfo, zoneKindOf, type ZoneGroup, type ZoneSpelling } from "../api/kinds";
import { ZONE_CREATE_KEYS } from "../api/methods";
import type { Account, HandlerContext } from "./handlers/context";
import { cdnHost, passwordMatches as matchesHash } from "./handlers/zone-rules";
import { changeZone, createZone } from "./handlers/zones";
import type { Emulator, ZoneView } from "./index";
import type { StoredZone } from "./store/store";
import { forbiddenXmlChar } from "../api/xmlrpc";
import { hasDeliveryHost, zoneRow } from "./zone-fields";

/** The part of the handle these make. */
type ZoneAccess = Pick<Emulator, "zones" | "zoneByName" | "passwordMatches" | "seedZone" | "editZone" | "deleteZone">;

/** The group of a kind spelled any way; a TypeError naming the method for anything else (JavaScript callers). */
function groupOf(method: string, spelling: ZoneSpelling): ZoneGroup {
  const kind = typeof spelling === "string" ? zoneKindOf(spelling) : undefined;
  if (!kind)
    throw new TypeError(`${method}: unknown zone kind '${String(spelling)}' (e.g. pull, pullzone or PullZone)`);
  return kindInfo(kind).group;
}

/** A stored zone as the handle shows it: its listZones row, then what the row leaves out (never the password). */
function view(zone: Readonly<StoredZone>, account: Account): ZoneView {
  const delivery = hasDeliveryHost(zone.kind) ? { cdn_url: cdnHost(zone.name, account) } : {};
  const { kind, id, name, label = "", createdAt } = zone;
  return { kind, id, name, ...zoneRow(zone), label, hasPassword: !!zone.passwordHash, ...delivery, createdAt };
}

/** Refuses keys create does not take for `group`, values that are not strings, and characters XML forbids. */
function checkKeys(group: ZoneGroup, values: Record<string, string>): void {
  for (const [key, value] of Object.entries(values)) {
    if (!ZONE_CREATE_KEYS[group].includes(key))
      throw new TypeError(`${group}: unknown key '${key}' (accepted: ${ZONE_CREATE_KEYS[group].join(", ")})`);
    if (typeof value !== "string") throw new TypeError(`${group}: ${key} must be a string`);
    // Same rule as for requests: the emulator never holds what it could not serve as XML.
    const bad = forbiddenXmlChar(value);
    if (bad) throw new TypeError(`${group}: ${key} holds ${bad}, a character XML does not allow`);
  }
}

/** The zone methods of a handle over `context`'s store; each change is flushed before it resolves. */
export function zoneAccess(context: HandlerContext): ZoneAccess {
  const { store, account } = context;
  return {
    zones: (spelling) => store.zones(groupOf("zones", spelling)).map((z) => view(z, account)),
    zoneByName: (spelling, name) => {
      const zone = store.zoneByName(groupOf("zoneByName", spelling), name);
      return zone && view(zone, account);
    },
    passwordMatches: (spelling, id, password) => {
      const zone = store.zone(id);
      return zone?.kind === groupOf("passwordMatches", spelling) && matchesHash(zone, password);
    },
    async seedZone(spelling, values) {
      const group = groupOf("seedZone", spelling);
      checkKeys(group, values);
      const outcome = createZone(context, group, values);
      if (!outcome.ok) throw new Error(`seedZone ${group}: ${outcome.code} ${outcome.message}`);
      await store.flush();
      return view(outcome.zone, account);
    },
    async editZone(spelling, id, values) {
      const group = groupOf("editZone", spelling);
      checkKeys(group, values);
      const problem = changeZone(context, group, id, values);
      if (problem) throw new Error(`editZone ${group} ${id}: ${problem}`);
      await store.flush();
      return view(store.zone(id)!, account);
    },
    async deleteZone(spelling, id) {
      if (store.zone(id)?.kind !== groupOf("deleteZone", spelling)) return false;
      store.deleteZone(id);
      await store.flush();
      return true;
    },
  };
}
