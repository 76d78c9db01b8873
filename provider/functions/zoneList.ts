/** What every zone lookup shares: listZones rows as camelCase, typed from the kinds' table, and a kind's getXZones. */
import { kindInfo, type ZoneKind } from "../api/kinds";
import { ZONE_KIND_TABLE } from "../api/zoneKinds";
import { camelRow, checkArgs } from "./args";
import type * as pulumi from "@pulumi/pulumi";
import { clientFor, FunctionOptions, FunctionOutputOptions } from "./connection";
import { mockablePair } from "./mocks";
import { outputForm } from "./outputForm";

type Table = typeof ZONE_KIND_TABLE;
type Fields<K extends ZoneKind> = Table[K]["fields"];
type Computed<K extends ZoneKind> = Table[K]["computed"];
/** The camelCase names of what a listZones row of kind K carries: listed fields, listed computed outputs. */
type ListedName<K extends ZoneKind> =
  | { [F in keyof Fields<K>]: Fields<K>[F] extends { listed: true } ? F : never }[keyof Fields<K>]
  | { [C in keyof Computed<K>]: Computed<K>[C] extends { fromList: true } ? C : never }[keyof Computed<K>];

/**
 * A zone of kind K as the lookups return it: `kind`, `zoneId`, the row's fields in camelCase; optional, with any
 * column a server adds, for a kind whose rows may carry only `id` (live zones, §2.2).
 */
export type ZoneInfoOf<K extends ZoneKind> = Table[K]["rowsMayOmitFields"] extends true
  ? { kind: K; zoneId: number; readonly [field: string]: unknown } & { [F in ListedName<K> & string]?: string }
  : { kind: K; zoneId: number } & { [F in ListedName<K> & string]: string };

/** A zone of any kind, as the lookups return it. */
export type ZoneInfo = { [K in ZoneKind]: ZoneInfoOf<K> }[ZoneKind];

export interface GetZonesResult<T extends ZoneInfo> {
  zones: T[];
}

/** Every zone of a kind, as lookups return them. */
export async function listKind(kind: ZoneKind, opts?: FunctionOptions): Promise<ZoneInfo[]> {
  const rows = (await clientFor(opts)[kindInfo(kind).group].listZones()) as unknown as Record<string, unknown>[];
  return rows.map(({ id, ...rest }) => camelRow<ZoneInfo>({ kind, zoneId: id, ...rest }));
}

/** getXZones of a kind and its Output form, mockable (mocks.ts): they take no arguments (any given is refused, naming `fn`). */
export function zonesOf<T extends ZoneInfo>(kind: ZoneKind, fn: string) {
  const get = async (args?: Record<string, never>, opts?: FunctionOptions): Promise<GetZonesResult<T>> => {
    checkArgs(fn, args, []);
    return { zones: (await listKind(kind, opts)) as T[] };
  };
  const output = (args?: Record<string, never>, opts?: FunctionOutputOptions): pulumi.Output<GetZonesResult<T>> =>
    outputForm(get, args, opts);
  return mockablePair(fn, get, output);
}
