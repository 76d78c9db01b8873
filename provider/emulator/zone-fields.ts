/**
 * What the emulator stores of a zone, from the kinds' table (api/zoneKinds.ts): the fields values may set, and the
 * values the API computes with each one's rule (a computed value of a new name fails the build until COMPUTED has it).
 */
import { kindOfGroup, ZONE_KINDS, type ZoneGroup } from "../api/kinds";
import { KIND_ROWS, ZONE_KIND_TABLE } from "../api/zoneKinds";
import type { HandlerContext } from "./handlers/context";
import { cdnHost, drawVanityIp, ipToInt, storageLocation } from "./handlers/zone-rules";

type Table = typeof ZONE_KIND_TABLE;
type AnyField = { [K in keyof Table]: Table[K]["fields"][keyof Table[K]["fields"]] }[keyof Table];
type AnyComputed = { [K in keyof Table]: Table[K]["computed"][keyof Table[K]["computed"]] }[keyof Table];
type WireOf<T> = T extends { readonly wire: infer W extends string } ? W : never;

/** The name of a value the API computes, in a create answer or a listZones row. */
export type ComputedWire = WireOf<AnyComputed>;
/** The string fields a zone's `values` may set, of any kind, but its name and password (stored as a hash). */
export type ValueField = Exclude<WireOf<AnyField>, "name" | "password">;
/** The computed values the emulator keeps with a zone: those listZones shows. */
export type StoredComputed = WireOf<Extract<AnyComputed, { fromList: true }>>;

/** Every field `values` may set of any kind (a kind that does not use one keeps ""), in the table's order. */
export const VALUE_FIELDS: readonly ValueField[] = [
  ...new Set(ZONE_KINDS.flatMap((k) => Object.values(ZONE_KIND_TABLE[k].fields).map((f) => f.wire))),
].filter((w): w is ValueField => w !== "name" && w !== "password");

/** Every computed value kept with a zone. */
export const STORED_COMPUTED: readonly StoredComputed[] = [
  ...new Set(
    ZONE_KINDS.flatMap((k) => Object.values(KIND_ROWS[k].computed).flatMap((c) => (c.fromList ? [c.wire] : []))),
  ),
] as StoredComputed[];

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
export type ComputedOutput = { readonly fromCreate: boolean; readonly createWireType?: "int" } & (
  { readonly wire: StoredComputed; readonly fromList: true } | { readonly wire: ComputedWire; readonly fromList: false }
);

/** Every string field a stored zone has, "" (a kind keeps "" in what it does not use). */
export const blankZoneFields = () =>
  Object.fromEntries([...VALUE_FIELDS, ...STORED_COMPUTED].map((f) => [f, ""])) as Record<
    ValueField | StoredComputed,
    string
  >;

/** The computed outputs of a group's kind, in the table's order. */
export function computedOf(group: ZoneGroup): readonly ComputedOutput[] {
  return Object.values(ZONE_KIND_TABLE[kindOfGroup(group)].computed) as readonly ComputedOutput[];
}

/** The field of a group's kind validated as an origin (pull zones' `origin`), if it has one. */
export function originFieldOf(group: ZoneGroup): string | undefined {
  return Object.values(ZONE_KIND_TABLE[kindOfGroup(group)].fields).find((f) => f.rule === "origin")?.wire;
}
