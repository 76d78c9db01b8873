/**
 * The zone kinds' names. A kind has one name everywhere (`pull`), and three spellings the outside world
 * fixes: its XML-RPC group (`pullzone`, on the wire and in the emulator's data file), its resource type
 * (`PullZone`, the exported class and the type the serialized provider passes to `handle(1, "PullZone", ...)`,
 * so it is in every state written since 0.1.0) and its labels. They come from the kinds' table
 * (zoneKinds.ts), and every layer derives its maps from here, so adding or renaming one spelling cannot leave a
 * copy behind.
 */
import { ZONE_KIND_TABLE, type KindRow } from "./zoneKinds";

const TABLE = ZONE_KIND_TABLE;

/** A zone kind: `pull`, `push`, `vod` or `live`. The one name of a kind in code, functions and the CLI. */
export type ZoneKind = keyof typeof TABLE;
/** A kind's XML-RPC group (`pullzone`): where its methods are served and what the emulator stores. */
export type ZoneGroup = (typeof TABLE)[ZoneKind]["group"];
/** A kind's resource type (`PullZone`): the exported class, and the type token the provider host passes. */
export type ZoneType = (typeof TABLE)[ZoneKind]["type"];
/** Any of a kind's three spellings, where a caller may use whichever it has at hand. */
export type ZoneSpelling = ZoneKind | ZoneGroup | ZoneType;

/** Everything known of one kind: its names and flags, as its row says them (KindRow, zoneKinds.ts). */
export interface ZoneKindInfo<K extends ZoneKind = ZoneKind>
  extends Pick<(typeof TABLE)[K], "group" | "type" | "label" | "apiLabel">, Pick<KindRow, "deletable" | "liveOnly"> {
  readonly kind: K;
}

/** Every kind, in the order kinds are listed, declared and imported. */
export const ZONE_KINDS: readonly ZoneKind[] = Object.keys(TABLE) as ZoneKind[];
/** Every kind's group, in ZONE_KINDS order. */
export const ZONE_GROUPS: readonly ZoneGroup[] = ZONE_KINDS.map((k) => TABLE[k].group);

/** A record with one entry per kind, made by `make`: for counts and sets kept by kind. */
export function perKind<T>(make: (kind: ZoneKind) => T): Record<ZoneKind, T> {
  return Object.fromEntries(ZONE_KINDS.map((k) => [k, make(k)])) as Record<ZoneKind, T>;
}

/** A record with one entry per group (`pullzone`), made from its kind by `make`: the wire's tables by group. */
export function perGroup<T>(make: (kind: ZoneKind) => T): Record<ZoneGroup, T> {
  return Object.fromEntries(ZONE_KINDS.map((k) => [TABLE[k].group, make(k)])) as Record<ZoneGroup, T>;
}

/** The row of `kind`. */
export function kindInfo<K extends ZoneKind>(kind: K): ZoneKindInfo<K> {
  return { kind, ...TABLE[kind] };
}

const BY_GROUP = new Map<string, ZoneKind>(ZONE_KINDS.map((k) => [TABLE[k].group, k]));
const BY_TYPE = new Map<string, ZoneKind>(ZONE_KINDS.map((k) => [TABLE[k].type, k]));

/** What a look-up by spelling `S` finds: a kind when `S` is one of the table's spellings `Of`, else maybe none. */
type Found<S, Of> = [S] extends [Of] ? ZoneKind : ZoneKind | undefined;

/** The kind served by XML-RPC group `group`; undefined for a group that is not a zone kind (`cache`). */
export const kindOfGroup = <S extends string>(group: S) => BY_GROUP.get(group) as Found<S, ZoneGroup>;
/** The kind of resource type `type` (`PullZone`); undefined for any other string. */
export const kindOfType = <S extends string>(type: S) => BY_TYPE.get(type) as Found<S, ZoneType>;

/** Whether `s` is a kind's canonical name. */
export function isZoneKind(s: unknown): s is ZoneKind {
  return typeof s === "string" && Object.prototype.hasOwnProperty.call(TABLE, s);
}

/**
 * The kind spelled `spelling` in any of the three ways (`pull`, `pullzone`, `PullZone`), exactly as
 * written; undefined otherwise. For entry points that accept what older code or other layers pass.
 */
export function zoneKindOf(spelling: string): ZoneKind | undefined {
  return isZoneKind(spelling) ? spelling : (BY_GROUP.get(spelling) ?? BY_TYPE.get(spelling));
}
