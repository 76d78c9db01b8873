/**
 * What the emulator stores of a zone, from the kinds' table (api/zoneKinds.ts): the fields values may set, and the
 * values the API computes with each one's rule (a computed value of a new name fails the build until COMPUTED has it).
 */
import { kindOfGroup, perGroup, type ZoneGroup } from "../api/kinds";
import { KIND_ROWS, ZONE_KIND_TABLE, type ComputedRow, type KindRow } from "../api/zoneKinds";
import type { HandlerContext } from "./handlers/context";
import { cdnHost, drawVanityIp, ipToInt, storageLocation } from "./handlers/zone-rules";
import type { StoredZone } from "./store/store";
import { ZONE_ROW_FIELDS } from "../api/wire";

type Table = typeof ZONE_KIND_TABLE;
type AnyField = { [K in keyof Table]: Table[K]["fields"][keyof Table[K]["fields"]] }[keyof Table];
type AnyComputed = { [K in keyof Table]: Table[K]["computed"][keyof Table[K]["computed"]] }[keyof Table];
type WireOf<T> = T extends { readonly wire: infer W extends string } ? W : never;

/** The name of a value the API computes, in a create answer or a listZones row. */
export type ComputedWire = WireOf<AnyComputed>;
/** The string fields a zone's `values` may set, of any kind, but its name and password (stored as a hash). */
export type ValueField = Exclude<WireOf<AnyField>, "name" | "password">;

/**
 * What a zone of a row's kind is stored with, each string with whether a data file must hold it: its fields (the
 * password as its hash) as create requires them, and the values listZones shows. A test may shape a changed row.
 */
export function storedShape(row: KindRow): ReadonlyMap<string, boolean> {
  const fields = Object.values(row.fields).map(
    (f) => [f.rule === "password" ? "passwordHash" : f.wire, f.create === "required"] as const,
  );
  const kept = Object.values(row.computed).flatMap((c) => (c.fromList ? [[c.wire, false] as const] : []));
  return new Map<string, boolean>([...fields, ...kept]);
}
/** Each group's stored shape: a field added to one kind's row changes that kind's zones only. */
export const STORED_SHAPES: Readonly<Record<string, ReadonlyMap<string, boolean>>> = perGroup((k) =>
  storedShape(KIND_ROWS[k]),
);

/** How the emulator makes each value the API computes (docs/emulator.md): per-zone ones are drawn, never from the id. */
export const COMPUTED: {
  readonly [W in ComputedWire]: (zone: { name: string }, ctx: Pick<HandlerContext, "account" | "store">) => string;
} = {
  cdn_url: (zone, { account }) => cdnHost(zone.name, account),
  vanity_ip: (_zone, { account, store }) => account.sharedVanityIp ?? drawVanityIp(store),
  storage_location: (_zone, { account }) => storageLocation(account),
};

/** A computed value as a create answer gives it where the contract types it int (§4.4: VOD's vanity_ip). */
export const AS_INT: { readonly [W in ComputedWire]?: (value: string) => number } = { vanity_ip: ipToInt };

/** One computed output of a kind, as the table gives it; one listZones shows is kept with the zone. */
export type ComputedOutput = Omit<ComputedRow, "wire"> & { readonly wire: ComputedWire };

/** The computed outputs of a group's kind, in the table's order. */
export function computedOf(group: ZoneGroup): readonly ComputedOutput[] {
  return Object.values(ZONE_KIND_TABLE[kindOfGroup(group)].computed) as readonly ComputedOutput[];
}

/** Whether a group's zones have a delivery host (`cdn_url`, the table's `deliveryHost`): the zones a purge can name. */
export const hasDeliveryHost = (group: ZoneGroup): boolean => computedOf(group).some((c) => c.deliveryHost);

/** The field of a group's kind validated as an origin (pull zones' `origin`), if it has one. */
export function originFieldOf(group: ZoneGroup): string | undefined {
  return Object.values(ZONE_KIND_TABLE[kindOfGroup(group)].fields).find((f) => f.rule === "origin")?.wire;
}

/** A zone's listZones row: exactly ZONE_ROW_FIELDS of its kind (each in its stored shape). */
export function zoneRow(zone: Readonly<StoredZone>): Record<string, string | number> {
  return Object.fromEntries(ZONE_ROW_FIELDS[zone.kind].map((f) => [f, zone[f] ?? ""]));
}
